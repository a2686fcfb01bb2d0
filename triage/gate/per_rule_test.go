package gate_test

import (
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

type junitDoc struct {
	Suite struct {
		Cases []struct {
			Name    string `xml:"name,attr"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			Failure *struct {
				Message string `xml:"message,attr"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// checkOf gates paths as `torchtriage check` does with o (triagetest.CheckPaths): the exit status and stdout.
func checkOf(t *testing.T, o gate.RunOptions, paths ...string) (int, string) {
	t.Helper()
	res, out, _ := triagetest.CheckPaths(t, o, paths...)
	return res.Exit, out
}

// junitCases are the cases of check --format junit with rules o: each rule's outcome and message.
func junitCases(t *testing.T, o gate.Options, paths ...string) map[string]string {
	t.Helper()
	_, out := checkOf(t, gate.RunOptions{Rules: o, Format: "junit"}, paths...)
	var d junitDoc
	if err := xml.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := map[string]string{}
	for _, c := range d.Suite.Cases {
		switch {
		case c.Failure != nil:
			got[c.Name] = "failed: " + c.Failure.Message
		case c.Skipped != nil:
			got[c.Name] = "skipped: " + c.Skipped.Message
		default:
			got[c.Name] = "passed"
		}
	}
	return got
}

// A rule the input cannot show is not evaluated, whether or not another rule failed (a format sweep: beside a
// failing --no-cudagraph-skips, --max-graph-breaks and --max-recompiles of a log with no TORCH_LOGS were passed
// JUnit cases, while alone they exit 4), and each says its own reason (--max-graph-breaks 10 of a log whose
// breaks were logged was "skipped: no cudagraphs records").
func TestEachRuleIsEvaluatedOnItsOwnEvidence(t *testing.T) {
	fx := filepath.Join("..", "..", "testdata", "fixtures", "torch-2.11-cuda")
	got := junitCases(t, gate.Options{MaxGraphBreaks: 0, MaxRecompiles: 0, NoCudagraphSkips: true}, filepath.Join(fx, "g13b_cg_rerecord_limit_noinline.no_torch_logs.log"))
	for _, r := range []string{"--max-graph-breaks=0", "--max-recompiles=0"} {
		if !strings.HasPrefix(got[r], "skipped: ") || !strings.Contains(got[r], strings.TrimPrefix(strings.SplitN(r, "=", 2)[0], "--max-")[:5]) {
			t.Errorf("%s: %q", r, got[r])
		}
	}
	if !strings.HasPrefix(got["--no-cudagraph-skips"], "failed") {
		t.Errorf("skips: %q", got["--no-cudagraph-skips"])
	}
	code, out := checkOf(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: 0, NoCudagraphSkips: true}}, filepath.Join(fx, "g13b_cg_rerecord_limit_noinline.no_torch_logs.log"))
	if code != gate.ExitFailed || !strings.Contains(out, "not evaluated: --max-graph-breaks=0") {
		t.Errorf("text: %d\n%s", code, out)
	}
	_, js := checkOf(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1, NoCudagraphSkips: true}, Format: "json"}, filepath.Join(fx, "g13b_cg_rerecord_limit_noinline.no_torch_logs.log"))
	var d struct {
		NotEvaluated map[string]string `json:"not_evaluated"`
	}
	if err := json.Unmarshal([]byte(js), &d); err != nil || d.NotEvaluated["--max-graph-breaks=0"] == "" {
		t.Errorf("json %v: %s", err, js)
	}
	got = junitCases(t, gate.Options{MaxGraphBreaks: 10, MaxRecompiles: -1, NoCudagraphSkips: true}, filepath.Join(fx, "g07_gb_recompile_mix.triage.log"))
	if got["--max-graph-breaks=10"] != "passed" || !strings.Contains(got["--no-cudagraph-skips"], "cudagraphs") {
		t.Errorf("g07: %q", got)
	}
}

// The check's counted line words what was not logged as the report does: "CUDA-graph skips unknown" of logs
// alone (the report's "cudagraph skips unknown"; it said "not logged"), and a log with no torch output counts
// nothing (it said "0 limit hits, 0 compile errors").
func TestCheckCountsWordedAsTheReport(t *testing.T) {
	fx := filepath.Join("..", "..", "testdata", "fixtures", "torch-2.11-cuda", "g07_gb_recompile_mix.triage.log")
	_, out := checkOf(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 10, MaxRecompiles: -1, NoCudagraphSkips: true}, AllowNoEvidence: true}, fx)
	if !strings.Contains(out, "CUDA-graph skips unknown") || strings.Contains(out, "skips not logged") {
		t.Errorf("g07:\n%s", out)
	}
	_, out = checkOf(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileErrors: true}}, filepath.Join("..", "..", "testdata", "realtorch", "r22_plain_raise.triage.log"))
	if c := lineWith(out, "counted:"); strings.Contains(c, "0 limit hits") || !strings.Contains(c, "no torch output") {
		t.Errorf("r22: %q\n%s", c, out)
	}
}

// check's JSON says what its counts leave out and which are no count (not_counted, beside counts, whose values stay
// numbers): its graph_breaks and recompiles leave out by-design breaks and expected recompiles (the report's do
// not), and a 0 of a kind not logged read as a firm 0
// (format sweep: g13b's log with no TORCH_LOGS had "graph_breaks": 0 while the text said "unknown";
// compiler_disable's "graph_breaks": 0 beside "graph_break_records": 1).
func TestCheckJSONSaysWhatItsCountsAre(t *testing.T) {
	type counts struct {
		GraphBreaks         int `json:"graph_breaks"`
		GraphBreaksByDesign int `json:"graph_breaks_by_design"`
		RecompilesExpected  int `json:"recompiles_expected"`
		Logged              map[string]string
	}
	get := func(o gate.Options, path string) counts {
		_, out := checkOf(t, gate.RunOptions{Rules: o, Format: "json", AllowNoEvidence: true}, path)
		var d struct {
			Counts     counts            `json:"counts"`
			NotCounted map[string]string `json:"not_counted"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		d.Counts.Logged = d.NotCounted
		return d.Counts
	}
	fx := filepath.Join("..", "..", "testdata", "fixtures", "torch-2.11-cuda")
	if c := get(gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}, filepath.Join(fx, "g13b_cg_rerecord_limit_noinline.no_torch_logs.log")); c.Logged["graph_breaks"] != "unknown" || c.Logged["recompiles"] != "unknown" {
		t.Errorf("g13b: %+v", c)
	}
	if c := get(gate.Options{MaxGraphBreaks: -1, MaxRecompiles: 100}, filepath.Join(fx, "g07_gb_recompile_mix.triage.log")); c.RecompilesExpected != 8 || c.Logged["recompiles"] != "" {
		t.Errorf("g07: %+v", c)
	}
	if c := get(gate.Options{MaxGraphBreaks: 10, MaxRecompiles: -1}, filepath.Join("..", "..", "testdata", "recorded", "compiler-disable", "compiler_disable.triage.log")); c.GraphBreaksByDesign != 1 {
		t.Errorf("compiler_disable: %+v", c)
	}
}

// --no-limit-hits of a log the program silenced (testdata/recorded/silenced-logging: the counted line itself says
// "limit hits not in the log") passed with exit 0.
func TestNoLimitHitsOfASilencedLogIsNoEvidence(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "recorded", "silenced-logging", "runs", "0001-breaks")
	if code, out, errb := triagetest.CheckPaths(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoLimitHits: true}}, dir); code.Exit != gate.ExitNoEvidence {
		t.Errorf("exit %d\n%s%s", code.Exit, out, errb)
	}
}

// lineWith is the line of s that holds sub, with the lines wrapped under it (triagetest.LineWith).
var lineWith = triagetest.LineWith
