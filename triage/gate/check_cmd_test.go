package gate_test

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// runCheck gates a path as `torchtriage check` does with o (triagetest.CheckPaths): the exit status, stdout and
// the gate's stderr.
func runCheck(t *testing.T, o gate.RunOptions, path string) (int, string, string) {
	t.Helper()
	res, out, errb := triagetest.CheckPaths(t, o, path)
	return res.Exit, out, errb
}

// readBaseline reads a baseline file as check --baseline does.
func readBaseline(t *testing.T, path string) *gate.Baseline {
	t.Helper()
	b, err := gate.ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCheckRulesAndExitCodes(t *testing.T) {
	r05, r12, ddp := fx("torch-2.6/r05_dist_c10d.triage.log"), fx("torch-2.6/r12_limit_str.triage.log"), fx("torch-2.14/ddp_2ranks.ddp.log")
	o := func(set func(o *gate.Options)) gate.Options { // check's rules: a count not given is no limit
		r := gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1}
		set(&r)
		return r
	}
	cases := []struct {
		path  string
		rules gate.Options
		code  int
		want  string // in stdout
	}{
		{r05, o(func(o *gate.Options) { o.MaxGraphBreaks = 1 }), 0, "PASS · --max-graph-breaks=1 · counted: 1 graph break"},
		{r05, o(func(o *gate.Options) { o.MaxGraphBreaks = 0 }), 1, "FAIL [--max-graph-breaks=0] 1 graph break > 0: print() breaks the graph in step (r05_dist_c10d.py:10) · at /work/repro/r05_dist_c10d.py:10 · rank 0 · playbook gb-print"},
		{r05, o(func(o *gate.Options) { o.MaxRecompiles = 0 }), 0, "PASS · --max-recompiles=0 · counted: 1 graph break, 0 recompiles"},
		{r05, o(func(o *gate.Options) { o.MaxRecompiles, o.CountExpected = 0, true }), 1, "3 recompiles > 0"},
		{r12, o(func(o *gate.Options) { o.MaxRecompiles = 7 }), 1, "playbook rc-value-str-bool"},
		{r12, o(func(o *gate.Options) { o.NoLimitHits = true }), 1, "FAIL [--no-limit-hits] recompile limit hit: f hit config.cache_size_limit (8): after this the frame runs eager"},
		{r05, o(func(o *gate.Options) { o.NoLimitHits, o.NoCompileErrors = true, true }), 0, "PASS"},
		{r05, o(func(o *gate.Options) { o.RanksAgree = true }), 1, "FAIL [--ranks-agree] rank 0 differs from rank 1: extra graph break print() at r05_dist_c10d.py:10, extra recompile of step (after line 10), size mismatch y[0] 4→8 · first divergent compile id 0/0 on rank 0 · playbook dist-rank-divergent-graphs"},
		{ddp, o(func(o *gate.Options) { o.RanksAgree = true }), 0, "PASS"},
		{ddp, o(func(o *gate.Options) { o.MaxGraphBreaks = 1 }), 0, "counted: 1 graph break"},
		{ddp, o(func(o *gate.Options) { o.MaxGraphBreaks, o.CountExpected = 1, true }), 1, "3 graph breaks > 1"},
		{fx("torch-2.14/r07_fullgraph.triage.log"), o(func(o *gate.Options) { o.NoCompileErrors = true }), 1, "graph break made an error (fullgraph=True or error_on_graph_break)"},
		{fx("failures/torch-2.6.torchrun-port-in-use.log"), o(func(o *gate.Options) { o.NoCompileErrors = true }), 1, "playbook dist-rendezvous-port"},
	}
	for _, c := range cases {
		res, out, errs := triagetest.CheckPaths(t, gate.RunOptions{Rules: c.rules}, c.path)
		if code := res.Exit; code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("check %s %+v: code %d (want %d)\nstdout %s\nstderr %s\nwant %q", c.path, c.rules, code, c.code, out, errs, c.want)
		}
		if res.Exit == 1 {
			for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
				if strings.HasPrefix(l, "FAIL [") && !strings.Contains(l, "playbook ") {
					t.Errorf("failure line without playbook: %q", l)
				}
			}
		}
	}
}

// Baseline round trip: a run checked against its own baseline passes; a run without the print break reports
// it as improved; a baseline without the break fails the run that has it.
func TestBaselineRoundTrip(t *testing.T) {
	dir := t.TempDir()
	full := fx("torch-2.6/r05_dist_c10d.triage.log")
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.Contains(l, "[__graph_breaks]") {
			kept = append(kept, l)
		}
	}
	stripped := filepath.Join(dir, "no_break.log")
	_ = os.WriteFile(stripped, []byte(strings.Join(kept, "\n")), 0o644)

	base := filepath.Join(dir, "base.json")
	if code, _, errs := runCheck(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1}, WriteBaseline: base}, full); code != 0 || !strings.Contains(errs, "wrote baseline") {
		t.Fatalf("write: %d %s", code, errs)
	}
	b, err := gate.ReadBaseline(base)
	if err != nil || len(b.Items) != 2 || b.Items[0].Key != `graph_break:r05_dist_c10d.py:step:print():print("rank0 debug")` || b.Items[1].Key != "recompile:r05_dist_c10d.py:step:size" || !b.Items[1].Expected {
		t.Fatalf("baseline %+v %v", b, err)
	}
	if code, out, _ := runCheck(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: readBaseline(t, base)}}, full); code != 0 || strings.Contains(out, "improved") {
		t.Errorf("same run: %d %s", code, out)
	}
	// Without its [__graph_breaks] lines nothing shows breaks were logged: "gone" could be logging off.
	code, _, errs := runCheck(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: readBaseline(t, base)}}, stripped)
	if code != gate.ExitNoEvidence || !strings.Contains(errs, "no graph_breaks records") {
		t.Errorf("break records removed: %d %s", code, errs)
	}
	// passing without evidence, its break is not "improved, gone": breaks were not compared
	code, out, _ := runCheck(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: readBaseline(t, base)}, AllowNoEvidence: true}, stripped)
	if code != 0 || strings.Contains(out, "improved, gone: graph break") ||
		!strings.Contains(out, "note: graph breaks of the baseline not compared: the input shows no sign they were logged") {
		t.Errorf("break removed: %d %s", code, out)
	}
	// a log that shows no break logging makes no baseline (every later break would be "new"): one without the
	// break is written by hand
	base2 := filepath.Join(dir, "base2.json")
	if code, _, errs := runCheck(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1}, WriteBaseline: base2}, stripped); code != gate.ExitNoEvidence || !strings.Contains(errs, "no baseline written") {
		t.Fatalf("baseline from a log without break logging: %d %s", code, errs)
	}
	_ = os.WriteFile(base2, []byte(`{"schema":"torchtriage.baseline/v2","inputs":[],"items":[{"key":"recompile:r05_dist_c10d.py:step:size","kind":"recompile","title":"step: size","records":3,"expected":true}]}`), 0o644)
	code, out, _ = runCheck(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: readBaseline(t, base2)}}, full)
	if code != 1 || !strings.Contains(out, "FAIL [--baseline] new graph break not in the baseline: print() breaks the graph in step (r05_dist_c10d.py:10)") {
		t.Errorf("break added: %d %s", code, out)
	}
	// a new recompile class that is expected (automatic dynamic) is a note unless --count-expected
	empty := filepath.Join(dir, "empty.json")
	_ = os.WriteFile(empty, []byte(`{"schema":"torchtriage.baseline/v1","inputs":[],"items":[{"key":"graph_break:r05_dist_c10d.py:10:print()","kind":"graph_break","title":"x","records":2}]}`), 0o644)
	if code, out, _ := runCheck(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: readBaseline(t, empty)}}, full); code != 0 || !strings.Contains(out, "note: new but expected (not counted)") {
		t.Errorf("expected recompile class: %d %s", code, out)
	}
	if code, _, _ := runCheck(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: readBaseline(t, empty), CountExpected: true}}, full); code != 1 {
		t.Errorf("--count-expected: %d", code)
	}
}

func TestCheckFormats(t *testing.T) {
	r05 := fx("torch-2.6/r05_dist_c10d.triage.log")
	code, out, _ := runCheck(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1, RanksAgree: true}, Format: "github"}, r05)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 3 ||
		!strings.HasPrefix(lines[0], "::error title=torchtriage --max-graph-breaks=0::1 graph break > 0: print()") ||
		!strings.HasPrefix(lines[1], "::error title=torchtriage --ranks-agree::rank 0 differs from rank 1") {
		t.Errorf("github (the repro's /work/repro is not here: no file): %d\n%s", code, out)
	}
	code, out, _ = runCheck(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}, Format: "github", PathRoot: "/work/repro"}, r05)
	if code != 1 || !strings.HasPrefix(out, "::error file=r05_dist_c10d.py,line=10,title=torchtriage --max-graph-breaks=0::1 graph break > 0: print()") {
		t.Errorf("github --path-root: %d\n%s", code, out)
	}
	code, out, _ = runCheck(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1, NoLimitHits: true}, Format: "junit"}, r05)
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suite    struct {
			Cases []struct {
				Failure *struct {
					Text string `xml:",cdata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &suites); err != nil || code != 1 {
		t.Fatalf("junit: %v\n%s", err, out)
	}
	if suites.Tests != 2 || suites.Failures != 1 || suites.Suite.Cases[0].Failure == nil || suites.Suite.Cases[1].Failure != nil ||
		!strings.Contains(suites.Suite.Cases[0].Failure.Text, "playbook gb-print") {
		t.Errorf("junit %+v", suites)
	}
	code, out, _ = runCheck(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}, Format: "json"}, r05)
	var res struct {
		Schema string `json:"schema"`
		gate.Result
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 1 || res.Passed || res.Schema != "torchtriage.check/v1" ||
		len(res.Failures) != 1 || res.Failures[0].Playbook != "gb-print" || res.Failures[0].Line != 10 || res.Counts.GraphBreaks != 1 {
		t.Errorf("json %+v %v", res, err)
	}
}
