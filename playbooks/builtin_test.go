package playbooks

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func mustBuiltin(t *testing.T) *Set {
	t.Helper()
	s, err := Builtin()
	if err != nil {
		t.Fatalf("built-in playbooks do not load: %v", err)
	}
	return s
}

func TestBuiltinsLoadAndAreWellFormed(t *testing.T) {
	s := mustBuiltin(t)
	all := s.All()
	if len(all) < 35 {
		t.Fatalf("got %d built-in playbooks, want at least 35", len(all))
	}
	for i := 1; i < len(all); i++ {
		if all[i-1].ID >= all[i].ID {
			t.Errorf("All() not sorted by unique id: %q before %q", all[i-1].ID, all[i].ID)
		}
	}
	generics := 0
	for _, p := range all {
		if p.Source != "builtin" {
			t.Errorf("%s: Source = %q, want builtin", p.ID, p.Source)
		}
		if p.IsGeneric() {
			generics++
			if p.Match.HasCriteria() {
				t.Errorf("%s: a fallback must match on kind alone", p.ID)
			}
		} else if !p.Match.HasCriteria() {
			t.Errorf("%s: non-generic playbook without match criteria", p.ID)
		}
		checkSections(t, p)
		for _, r := range p.Related {
			if _, ok := s.Get(r); !ok {
				t.Errorf("%s: related id %q does not exist", p.ID, r)
			}
			if r == p.ID {
				t.Errorf("%s: lists itself as related", p.ID)
			}
		}
	}
	if generics < len(Kinds()) {
		t.Errorf("only %d generic playbooks for %d kinds", generics, len(Kinds()))
	}
}

func TestEveryKindHasItsFallback(t *testing.T) {
	s := mustBuiltin(t)
	for _, k := range Kinds() {
		p, ok := s.Get(GenericPrefix + string(k))
		if !ok {
			t.Errorf("no %s%s fallback", GenericPrefix, k)
			continue
		}
		if !slices.Contains(p.Match.Kinds, k) {
			t.Errorf("%s does not list kind %s", p.ID, k)
		}
	}
	if _, ok := s.Get(UnknownFallbackID); !ok {
		t.Errorf("no %s fallback for unknown kinds", UnknownFallbackID)
	}
}

var gbSourceRe = regexp.MustCompile(`^https://meta-pytorch\.github\.io/compile-graph-break-site/gb/gb[0-9]{4}\.html$`)

func checkSections(t *testing.T, p *Playbook) {
	t.Helper()
	if got := p.Sections(); !slices.Equal(got, RequiredSections) {
		t.Errorf("%s: sections %v, want exactly %v in that order", p.ID, got, RequiredSections)
	}
	why := strings.Split(p.Why(), "\n")
	if len(why) < 2 || len(why) > 4 || why[0] == "" {
		t.Errorf("%s: Why has %d lines, want 2-4", p.ID, len(why))
	}
	if len(p.Do()) == 0 {
		t.Errorf("%s: Do has no numbered steps", p.ID)
	}
	if p.Verify() == "" {
		t.Errorf("%s: Verify is empty", p.ID)
	}
	if n := strings.Count(strings.TrimSpace(p.Body), "\n") + 1; n > 22 {
		t.Errorf("%s: body has %d lines, want <= 22 (fits an 80x24 pane)", p.ID, n)
	}
	srcs := p.Sources()
	if len(srcs) == 0 {
		t.Errorf("%s: no sources", p.ID)
	}
	for _, src := range srcs {
		u, err := url.Parse(src)
		if err != nil || u.Scheme != "https" || u.Host == "" || strings.ContainsAny(src, " \t") {
			t.Errorf("%s: source %q is not an https URL", p.ID, src)
		}
		if strings.Contains(src, "compile-graph-break-site") && !gbSourceRe.MatchString(src) {
			t.Errorf("%s: registry link %q is not of the form .../gb/gbNNNN.html", p.ID, src)
		}
	}
}

func TestSectionAccessors(t *testing.T) {
	p, err := Parse("x.md", []byte(`---
id: demo
title: Demo
severity: low
category: fix
match:
  kinds: [graph_break]
  reasons: ['demo']
preset: breaks
---
## Why
First line
second line.
## Do
1. Step one
   continues here.
2. Step two.
- not a step
## Verify
Rerun.
## Sources
- https://example.org/a
- [named](https://example.org/b)
`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Why(), "First line\nsecond line."; got != want {
		t.Errorf("Why = %q, want %q", got, want)
	}
	if got, want := p.Do(), []string{"Step one continues here.", "Step two. - not a step"}; !slices.Equal(got, want) {
		t.Errorf("Do = %q, want %q", got, want)
	}
	if got := p.Verify(); got != "Rerun." {
		t.Errorf("Verify = %q", got)
	}
	if got, want := p.Sources(), []string{"https://example.org/a", "https://example.org/b"}; !slices.Equal(got, want) {
		t.Errorf("Sources = %q, want %q", got, want)
	}
}

func TestByGBIDAndLookup(t *testing.T) {
	s := mustBuiltin(t)
	ps := s.ByGBID("gb0059")
	if len(ps) < 2 || ps[0].ID != "gb-print" {
		ids := []string{}
		for _, p := range ps {
			ids = append(ids, p.ID)
		}
		t.Fatalf("ByGBID(gb0059) = %v, want gb-print first and the generic builtin playbook too", ids)
	}
	for _, key := range []string{"GB0059", "gb0059", "59"} {
		if p, ok := s.Lookup(key); !ok || p.ID != "gb-print" {
			t.Errorf("Lookup(%q) = %v, %v; want gb-print", key, p, ok)
		}
	}
	if p, ok := s.Lookup("RC-SHAPE"); !ok || p.ID != "rc-shape" {
		t.Errorf("Lookup by id is not case-insensitive: %v %v", p, ok)
	}
	if _, ok := s.Lookup("GB9999"); ok {
		t.Error("Lookup(GB9999) found something")
	}
	if _, ok := s.Lookup("no-such-playbook"); ok {
		t.Error("Lookup of an unknown id found something")
	}
}
