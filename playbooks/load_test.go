package playbooks

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const userOverride = `---
id: gb-print
title: Our team's print policy
severity: low
category: consider
match:
  kinds: [graph_break]
  reasons: ['print']
related: [gb-logger]
preset: breaks
---
## Why
We allow prints in debug builds.
## Do
1. Ask in #compile-help.
## Verify
Nothing.
## Sources
- https://wiki.example.org/print
`

const userNew = `---
id: team-flash-attn
title: Flash attention kernel falls back
severity: medium
category: fix
match:
  kinds: [graph_break]
  reasons: ['flash_attn']
preset: breaks
---
## Why
w
## Do
1. d
## Verify
v
## Sources
- https://wiki.example.org/flash
`

func TestLoadUserOverridesAndAdds(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "print.md", userOverride)
	path := writeFile(t, dir, "flash.md", userNew)
	writeFile(t, dir, "notes.txt", "not a playbook")
	s, errs := Load(dir)
	if len(errs) != 0 {
		t.Fatalf("unexpected errors: %v", errs)
	}
	b := mustBuiltin(t)
	if got, want := len(s.All()), len(b.All())+1; got != want {
		t.Errorf("%d playbooks, want %d (built-ins + 1 new, override replaces)", got, want)
	}
	p, _ := s.Get("gb-print")
	if p.Title != "Our team's print policy" || p.Source != filepath.Join(dir, "print.md") {
		t.Errorf("override not applied: %q from %q", p.Title, p.Source)
	}
	if orig, _ := b.Get("gb-print"); orig.Title == p.Title {
		t.Error("override leaked into the built-in set")
	}
	if q, ok := s.Get("team-flash-attn"); !ok || q.Source != path {
		t.Errorf("user playbook not added: %v %v", q, ok)
	}
	if r := s.Match(Query{Kind: "graph_break", Reason: "flash_attn kernel fell back"}); r.Primary.ID != "team-flash-attn" {
		t.Errorf("user playbook not matched: %s", r.Primary.ID)
	}
}

func TestLoadReportsMalformedFilesAndKeepsTheRest(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "good.md", userNew)
	bad := map[string]struct {
		text string
		line int
		msg  string
	}{
		"unknown-key.md":  {strings.Replace(userNew, "preset: breaks", "preset: breaks\nowner: me", 1), 10, `unknown key "owner"`},
		"bad-severity.md": {strings.Replace(userNew, "severity: medium", "severity: urgent", 1), 4, `severity "urgent" is not one of`},
		"bad-regexp.md":   {strings.Replace(userNew, "['flash_attn']", "\n    - 'ok'\n    - '(unclosed'", 1), 10, "bad regexp"},
		"bad-kind.md":     {strings.Replace(userNew, "[graph_break]", "[graph_brake]", 1), 7, `"graph_brake" is not one of`},
		"no-front.md":     {"# just markdown\n", 1, "missing front matter"},
		"not-closed.md":   {"---\nid: x\n", 1, "not closed"},
		"bad-yaml.md":     {strings.Replace(userNew, "title: Flash attention", "title: Flash: attention", 1), 3, "mapping values are not allowed"},
		"no-section.md":   {strings.Replace(userNew, "## Verify\nv\n", "", 1), 1, `no "## Verify" section`},
		"missing-id.md":   {strings.Replace(userNew, "id: team-flash-attn\n", "", 1), 1, `missing required key "id"`},
		"dup-key.md":      {strings.Replace(userNew, "preset: breaks", "preset: breaks\ntitle: again", 1), 10, `duplicate key "title"`},
		"no-criteria.md":  {strings.Replace(userNew, "  reasons: ['flash_attn']\n", "", 1), 1, "match needs"},
		"bad-gbid.md":     {strings.Replace(userNew, "  reasons:", "  gb_ids: [G59]\n  reasons:", 1), 8, "not a graph-break id"},
	}
	for name, c := range bad {
		text := strings.Replace(c.text, "team-flash-attn", strings.TrimSuffix(name, ".md"), 1)
		writeFile(t, dir, name, text)
	}
	s, errs := Load(dir)
	if _, ok := s.Get("team-flash-attn"); !ok {
		t.Error("the good file did not load")
	}
	if len(errs) != len(bad) {
		t.Fatalf("%d errors for %d bad files: %v", len(errs), len(bad), errs)
	}
	for _, err := range errs {
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("error %v is not a *ParseError", err)
			continue
		}
		c, ok := bad[filepath.Base(pe.File)]
		if !ok {
			t.Errorf("error for unexpected file: %v", err)
			continue
		}
		want := pe.File + ":" + strconv.Itoa(c.line) + ": "
		if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("got %q, want prefix %q containing %q", err.Error(), want, c.msg)
		}
	}
}

func TestLoadDuplicateIDsAndMissingRelated(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.md", userNew)
	writeFile(t, dir, "b.md", userNew)
	writeFile(t, dir, "c.md", strings.Replace(strings.Replace(userNew, "team-flash-attn", "team-c", 1),
		"preset: breaks", "related: [nope]\npreset: breaks", 1))
	s, errs := Load(dir)
	if len(errs) != 2 {
		t.Fatalf("want 2 errors (duplicate id, missing related), got %v", errs)
	}
	if !strings.HasPrefix(errs[0].Error(), filepath.Join(dir, "b.md")+":1: ") || !strings.Contains(errs[0].Error(), "already defined") {
		t.Errorf("duplicate id error: %v", errs[0])
	}
	if !strings.HasPrefix(errs[1].Error(), filepath.Join(dir, "c.md")+":9: ") || !strings.Contains(errs[1].Error(), `"nope"`) {
		t.Errorf("missing related error: %v", errs[1])
	}
	if _, ok := s.Get("team-c"); !ok {
		t.Error("a playbook with a dangling related id should still load")
	}
}

func TestLoadMissingOrEmptyDir(t *testing.T) {
	for _, dir := range []string{"", filepath.Join(t.TempDir(), "does-not-exist")} {
		s, errs := Load(dir)
		if len(errs) != 0 || len(s.All()) != len(mustBuiltin(t).All()) {
			t.Errorf("Load(%q): %d playbooks, errors %v", dir, len(s.All()), errs)
		}
	}
}

func TestDefaultUserDir(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	if got := DefaultUserDir(); got != filepath.Join("/cfg", "torchtriage", "playbooks") {
		t.Errorf("with XDG_CONFIG_HOME: %q", got)
	}
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", home)
	if got := DefaultUserDir(); got != filepath.Join(home, ".config", "torchtriage", "playbooks") {
		t.Errorf("fallback to HOME: %q", got)
	}
	t.Setenv("XDG_CONFIG_HOME", "relative/dir") // the spec says ignore relative paths
	if got := DefaultUserDir(); got != filepath.Join(home, ".config", "torchtriage", "playbooks") {
		t.Errorf("relative XDG_CONFIG_HOME should be ignored: %q", got)
	}
}
