package story_test

// The log and note commands over a story's store, end to end through the command line.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/cli"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/story"
)

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := cli.Run(args, nil, &out, &errb)
	return code, out.String(), errb.String()
}

func TestNoteRoundTrip(t *testing.T) {
	store := story.BringupStore(t)
	dir := filepath.Join(store, "0001-breaks")
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := cli.Run(append([]string{"note"}, args...), nil, &out, &errb)
		return code, out.String(), errb.String()
	}
	// by directory, with a line break collapsed
	if code, _, errs := run(dir, "c10d baseline,\n rank 0 prints"); code != 0 {
		t.Fatalf("note by dir: %d %s", code, errs)
	}
	m, err := runs.LoadRun(dir)
	if err != nil || m.Note != "c10d baseline, rank 0 prints" || m.Metric == nil || *m.Metric != 18.1 {
		t.Fatalf("meta after note: %+v %v", m, err)
	}
	s, err := story.Build(store)
	if err != nil || s.Runs[0].Note != "c10d baseline, rank 0 prints" || s.Runs[1].Note != "switched to funcol" {
		t.Fatalf("story notes %q %q %v", s.Runs[0].Note, s.Runs[1].Note, err)
	}
	if code, _, errs := run("--store", store, "--clear", "2"); code != 0 {
		t.Fatalf("clear: %d %s", code, errs)
	}
	if m, _ := runs.LoadRun(filepath.Join(store, "0002-deep")); m.Note != "" {
		t.Errorf("note not cleared: %q", m.Note)
	}
	story.StoryRun(t, store, runs.Meta{ID: 5, Preset: "breaks", UserArgv: []string{"python", "repro.py"},
		State: runs.StateRunning}, nil, "-")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--store", store, "9", "x"}, "no run 9"},
		{[]string{"--store", store, "1"}, "no note text"},
		{[]string{"--store", store}, "no run given"},
		{[]string{"--store", store, "5", "too", "early"}, "still running"},
		{[]string{"--store", store, "1", strings.Repeat("x", 301)}, "too long"},
		{[]string{"--store", store, "--clear", "1", "x"}, "--clear takes no text"},
	} {
		code, _, errs := run(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("note %q: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
}

func TestCmdLog(t *testing.T) {
	store := story.BringupStore(t)
	if err := os.MkdirAll(filepath.Join(store, "0006-breaks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(store, "0006-breaks", "meta.json"), []byte("{half"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := cli.Run(append([]string{"log"}, args...), nil, &out, &errb)
		return code, out.String(), errb.String()
	}
	t.Setenv("TERM", "xterm-256color") // a UTF-8 terminal, whatever runs the test
	t.Setenv("LC_ALL", "C.UTF-8")
	code, out, errs := run("--store", store, "--width", "200") // whole lines
	if code != 0 || !strings.Contains(out, "Run 2 · 2026-03-02 14:12:00 · preset deep · exit 0 · 1m3.8s · metric 24.5 · “switched to funcol”") ||
		!strings.Contains(out, "fixed graph break: print() breaks the graph in step (r05_dist_c10d.py:10) · gb-print") ||
		!strings.Contains(out, "rank agreement regained") || !strings.Contains(out, "$ pythn repro.py") ||
		!strings.Contains(out, "Run 6 · — · preset (none) · unreadable meta.json") {
		t.Errorf("text: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, _ := run("--format", "markdown", "--store", store); code != 0 || !strings.HasPrefix(out, "## torchtriage session log") {
		t.Errorf("markdown: exit %d\n%s", code, out)
	}
	if code, out, _ := run("--store", store, "--format", "json"); code != 0 || !json.Valid([]byte(out)) {
		t.Errorf("json: exit %d\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--store", store, "--format", "html"}, `--format: "html" is not one of text, markdown, json or md; see torchtriage log --help`},
		{[]string{"--store", filepath.Join(store, "missing")}, "no run store"},
		{[]string{"--store", store, "extra"}, "unexpected argument"},
	} {
		if code, _, errs := run(c.args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("log %q: exit %d %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(store, "missing")); err == nil {
		t.Error("log created the missing store")
	}
}

// Through the real runner: the same command run twice (the repro's output file edited in between, as a user
// edits the code), a note by run number, then the log.
func TestStoryThroughRunner(t *testing.T) {
	tmp := t.TempDir()
	store, current := filepath.Join(tmp, "runs"), filepath.Join(tmp, "current.log")
	cmd := []string{"--store", store, "--no-probe", "--max-graph-breaks", "9", "--", "sh", "-c", "cat " + current + " >&2"}
	for _, fix := range []string{"torch-2.14/r05_dist_c10d.triage.log", "torch-2.14/r06_dist_funcol.triage.log"} {
		data, err := os.ReadFile(filepath.Join(story.Fixtures, fix))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(current, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errs := runCLI(append([]string{"check"}, cmd...)...); code != 0 {
			t.Fatalf("check: %d\n%s\n%s", code, out, errs)
		}
	}
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"note", "--store", store, "2", "switched to funcol"}, nil, &out, &errb); code != 0 {
		t.Fatalf("note: %d %s", code, errb.String())
	}
	out.Reset()
	if code := cli.Run([]string{"log", "--store", store, "--format", "json"}, nil, &out, &errb); code != 0 {
		t.Fatalf("log: %d %s", code, errb.String())
	}
	var doc struct {
		Runs []story.Run `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Runs) != 2 {
		t.Fatalf("%v\n%s", err, out.String())
	}
	r := doc.Runs[1]
	if r.Note != "switched to funcol" || r.Exit != "exit 0" || r.Preset != "breaks" || len(r.Changes) != 0 || r.Delta == nil ||
		r.Delta.Basis != "same command" || r.Delta.Agreement != "" || len(r.Delta.Fixed) == 0 || // no rank prefix: not compared
		r.Delta.Fixed[0].Playbook != "gb-print" {
		t.Errorf("run 2 %+v\ndelta %+v", r, r.Delta)
	}
}
