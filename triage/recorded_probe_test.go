package triage_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// The probe counted a graph break the log does not show, TORCH_LOGS having graph_breaks on (the program silenced
// logging; real 2.14.1, testdata/recorded/silenced-logging): the gate cannot pass on the log's "0 graph breaks"
// (exit 4), the verdict is not "steady state", and the finding does not tell to turn on what was on.
func TestProbeCountedBreaksTheLogDoesNotShow(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "silenced-logging", "runs", "0001-breaks")
	code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}}, dir)
	if code != gate.ExitNoEvidence || strings.Contains(out, "PASS") || !strings.Contains(errb, "the log does not show what the probe counted") {
		t.Errorf("check: exit %d\nstdout %s\nstderr %s", code, out, errb)
	}
	out = triagetest.ReportText(t, 300, dir)
	if strings.Contains(out, "steady state") || strings.Contains(out, "enable graph_breaks in TORCH_LOGS") ||
		!strings.Contains(out, "silenced") {
		t.Errorf("report:\n%s", out)
	}
}

// A rank's break printed before its process group existed has no rank prefix (real 2.14.1,
// testdata/recorded/unprefixed-rank-break): the log holds it, so the probe's cross-check does not say that rank's
// log output is missing.
func TestProbeCrossCheckWithUnprefixedRecords(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "unprefixed-rank-break", "runs", "0001-breaks")
	out := triagetest.ReportText(t, 300, dir)
	if strings.Contains(out, "output is missing") || strings.Contains(out, "stderr is captured") {
		t.Errorf("report:\n%s", out)
	}
}

// A fullgraph refusal the program caught without printing it (real 2.14.1, testdata/recorded/caught-silently):
// the probe counted it (Dynamo's counters.unimplemented), the log shows nothing. No pass on --no-compile-errors or
// --max-graph-breaks 0, no "steady state".
func TestCompileFailureOnlyTheProbeCounted(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "caught-silently", "runs", "0003-breaks")
	for rule, o := range map[string]gate.Options{
		"--no-compile-errors":  {MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileErrors: true},
		"--max-graph-breaks 0": {MaxGraphBreaks: 0, MaxRecompiles: -1},
	} {
		code, out, errb := check(t, gate.RunOptions{Rules: o}, dir)
		if code == 0 || strings.Contains(out, "PASS") {
			t.Errorf("check %v: exit %d\nstdout %s\nstderr %s", rule, code, out, errb)
		}
	}
	out := triagetest.ReportText(t, 300, dir)
	if strings.Contains(out, "steady state") || !strings.Contains(out, "counted 1 compile failure") {
		t.Errorf("report:\n%s", out)
	}
}

// The program silenced logging while the probe counted a break (real 2.14.1, testdata/recorded/silenced-logging):
// the log's zeros are no count. The report said "graph breaks 0 distinct (0 records) · recompiles 0" beside the
// probe's finding, JSON said graph_breaks_logged, and the checklist ticked "find graph breaks and recompiles" as
// done. Now the counts say the breaks did not reach the log, no step is done on it, and nothing asks to turn on
// TORCH_LOGS that was on.
func TestSilencedLogIsNoCount(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "silenced-logging", "runs", "0001-breaks")
	out := triagetest.ReportText(t, 300, dir)
	for _, bad := range []string{"graph breaks 0", "recompiles 0", "not logged", "--preset breaks"} {
		if strings.Contains(out, bad) {
			t.Errorf("report says %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"graph breaks not in the log", "recompiles not in the log"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	js := triagetest.ReportJSON(t, dir)
	var rep struct {
		Evidence struct {
			GraphBreaksLogged bool   `json:"graph_breaks_logged"`
			RecompilesLogged  bool   `json:"recompiles_logged"`
			LogSilenced       string `json:"log_silenced"`
		} `json:"evidence"`
		NextStep struct {
			Done []string `json:"done"`
		} `json:"next_step"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	ev := rep.Evidence
	if ev.GraphBreaksLogged || ev.RecompilesLogged || ev.LogSilenced == "" || len(rep.NextStep.Done) > 0 {
		t.Errorf("evidence %+v, steps done %v", ev, rep.NextStep.Done)
	}
}

// Rank 1's program silenced logging, so only rank 0's break printed while both probes counted it (real 2.14.1,
// testdata/recorded/silenced-rank): the ranks are not compared (not "rank 0 differs from rank 1"), --ranks-agree
// has no evidence (exit 4), and the gate's counted line says what is missing, not "graph_breaks not logged"
// (it was on) nor "0 limit hits".
func TestSilencedRankIsNotCompared(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "silenced-rank", "runs", "0001-breaks")
	out := triagetest.ReportText(t, 300, dir)
	if l := lineWith(out, "Rank agreement:"); !strings.Contains(l, "not compared: the log lacks what the probe counted (rank 1 counted 1 graph break") {
		t.Errorf("rank agreement %q", l)
	}
	if code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir); code != gate.ExitNoEvidence {
		t.Errorf("check --ranks-agree: exit %d\n%s%s", code, out, errb)
	}
	code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1, RanksAgree: true}}, dir)
	if code != 1 || strings.Contains(out, "not logged") || strings.Contains(out, "0 limit hits") || !strings.Contains(out, "at least 1 graph break (not all in the log)") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
}

// Dynamo's counters.unimplemented holds a recompile-limit hit (runs 0022, 0027: the log shows the hit) and, on
// 2.14.1, a data-dependent branch, which is a graph break (0036, under the guards preset that leaves graph_breaks
// out): neither is a compile failure the program caught without a word (real runs, testdata/recorded/
// probe-unimplemented). The gate exited 4 on them; now the limit-hit runs are gated, and the guards run's breaks
// are said to be unlogged, not hidden by the program.
func TestUnimplementedThatIsNoHiddenFailure(t *testing.T) {
	base := filepath.Join("..", "testdata", "recorded", "probe-unimplemented", "runs")
	for _, run := range []string{"0022-breaks", "0027-breaks"} {
		code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1, NoCompileErrors: true}}, filepath.Join(base, run))
		if code != 0 || !strings.Contains(out, "PASS") {
			t.Errorf("%s: exit %d\n%s%s", run, code, out, errb)
		}
		out = triagetest.ReportText(t, 300, filepath.Join(base, run))
		if strings.Contains(out, "caught it without printing it") || !strings.Contains(out, "limit") {
			t.Errorf("%s: report:\n%s", run, out)
		}
	}
	out := triagetest.ReportText(t, 300, filepath.Join(base, "0036-guards"))
	if strings.Contains(out, "caught it without printing it") || !strings.Contains(out, "graph_breaks was not logged") ||
		!strings.Contains(out, "counted 1 graph break (2 events) and 1 more Dynamo could not trace") {
		t.Errorf("0036: report:\n%s", out)
	}
}

// A backend failure the program caught and printed itself, with no traceback (real 2.14.1,
// testdata/recorded/caught-printed): the probe counted a frame that did not compile (frames total 1, ok 0) and the
// log shows no compile error for it. The gate passed with "0 compile errors" and the verdict was "steady state".
func TestFrameThatFailedToCompileOnlyTheProbeSaw(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "caught-printed", "runs", "0028-breaks")
	if code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1, NoCompileErrors: true}}, dir); code == 0 || strings.Contains(out, "PASS") {
		t.Errorf("check: exit %d\n%s%s", code, out, errb)
	}
	out := triagetest.ReportText(t, 300, dir)
	if strings.Contains(out, "steady state") || !strings.Contains(out, "1 frame that did not compile") {
		t.Errorf("report:\n%s", out)
	}
	// a frame that did not compile is the breaks step's work (as a fullgraph refusal is), not "done"; the next
	// step goes to it, not to the eager baseline
	js := triagetest.ReportJSON(t, dir)
	var d struct {
		NextStep struct {
			ID   string   `json:"id"`
			Done []string `json:"done"`
		} `json:"next_step"`
	}
	if err := json.Unmarshal([]byte(js), &d); err != nil || d.NextStep.ID != "breaks" || slices.Contains(d.NextStep.Done, "breaks") {
		t.Errorf("next step %+v (%v)", d.NextStep, err)
	}
	// the log shows the caught exception (without its traceback): the finding names it, not "no compile error …
	// or its output was not captured" beside the report's own "Caught ×1 RuntimeError: backend exploded"
	if f := lineWith(out, "frame that did not compile"); !strings.Contains(f, "RuntimeError: backend exploded") || strings.Contains(f, "output was not captured") {
		t.Errorf("finding %q", f)
	}
	// torchtriage captured the whole output of this run: an exception printed without a traceback is what the
	// program printed, not a cut input ("partial input: the text looks cut")
	if strings.Contains(out, "partial input") || strings.Contains(out, "looks cut") {
		t.Errorf("a captured run called cut:\n%s", out)
	}
}
