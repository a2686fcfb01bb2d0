package triage_test

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// One record is "1 record", in the text counts line and the Markdown table alike (they read "(1 records)"). The
// process died of its compile error: its counts are floors (floorIfUnfinished).
func TestCountsSayOneRecord(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, Fx("failures/torch-2.6.inductor-cpp-compile-error-missing-headers.log")), nil, nil)
	if a.Report.Counts.GraphBreakRecords != 1 || !a.Evidence.GraphBreaksLogged {
		t.Fatalf("the fixture has %d break records (logged: %v), the test wants 1, logged", a.Report.Counts.GraphBreakRecords, a.Evidence.GraphBreaksLogged)
	}
	if got := a.BreaksText(); got != "graph breaks ≥1 distinct (≥1 record)" {
		t.Errorf("text: %q", got)
	}
	var md strings.Builder
	render.WriteMarkdown(&md, a)
	if !strings.Contains(md.String(), "| ≥1 distinct (≥1 record) |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	a = triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/gb_recompile.triage.log")), nil, nil)
	if got := a.BreaksText(); got != "graph breaks 3 distinct (7 records)" {
		t.Errorf("text: %q", got)
	}
}

// The gate's summary line and the per-rank counts say "1 limit hit", "1 recompile" (they read "1 limit hits").
func TestGateAndRankCountsSayOne(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/gb_recompile.triage.log")), nil, nil)
	s := gate.Summary(gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoLimitHits: true}))
	if !strings.Contains(s, ", 1 limit hit, 0 compile errors, 0 runtime errors") {
		t.Errorf("gate: %s", s)
	}
	r05 := triage.Analyze(triage.LoadReport(t, Fx("torch-2.6/r05_dist_c10d.triage.log")), nil, nil)
	if res := gate.Check(r05, gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}); len(res.Failures) == 0 || !strings.HasPrefix(res.Failures[0].Message, "1 graph break > 0: ") {
		t.Errorf("gate failure: %+v", res.Failures)
	}
	if got := render.CountsText(report.Counts{GraphBreaks: 1, Recompiles: 1, CudagraphSkips: 1, RecompileLimitHits: 2}, nil); got != "1 break, 1 recompile, 2 limit hits, 1 skip, 0 compile errors, 0 runtime errors" {
		t.Errorf("per rank: %s", got)
	}
}

// A count of breaks seen while graph_breaks was off is a floor, not the count: without TORCH_LOGS only the
// Tensor.item() warning prints (gb_recompile has 3 distinct breaks; 1 printed). Every rendering says "at least"
// and why; a logged count and a kind not logged at all read as before.
func TestPartialBreakCountSaysAtLeast(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/gb_recompile.no_torch_logs.log")), nil, nil)
	if got := a.BreaksText(); got != "graph breaks at least 1 distinct (1 record; graph_breaks not logged)" {
		t.Errorf("text: %q", got)
	}
	if got := a.RecompilesText(); got != "recompiles unknown (no sign recompiles was on)" { // logs alone
		t.Errorf("recompiles: %q", got)
	}
	var md strings.Builder
	render.WriteMarkdown(&md, a)
	if !strings.Contains(md.String(), "| at least 1 distinct (1 record; graph_breaks not logged) | unknown (no sign recompiles was on) |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	s := gate.Summary(gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoLimitHits: true}))
	if !strings.Contains(s, "counted: at least 1 graph break (graph_breaks not logged), recompiles unknown, 1 limit hit") {
		t.Errorf("gate: %s", s)
	}
	if got := render.CountsText(a.Report.Counts, a); !strings.HasPrefix(got, "at least 1 break, recompiles unknown, 1 limit hit") {
		t.Errorf("per rank: %s", got)
	}
	for _, c := range []struct {
		n      int
		logged report.Logging
		want   string
	}{{3, report.LoggingOn, "3 breaks"}, {0, report.LoggingOn, "0 breaks"}, {1, report.LoggingOn, "1 break"}, {0, report.LoggingOff, "breaks not logged"},
		{0, report.LoggingUnknown, "breaks unknown"}, {2, report.LoggingOff, "at least 2 breaks"}, {2, report.LoggingUnknown, "at least 2 breaks"}} {
		if got := report.Tally(c.n, c.logged, "break"); got != c.want {
			t.Errorf("Tally(%d, %v) = %q, want %q", c.n, c.logged, got, c.want)
		}
	}
}

// Counts are worded for their number ("1 input", "2 inputs"), never "input(s)": the report's header, the GPU
// findings' details and the comparison's headline use Plural as the counts line does.
func TestNoMaybePlurals(t *testing.T) {
	for _, name := range []string{"torch-2.14/gb_recompile.triage.log", "torch-2.11-cuda/g01_cg_cpu_input.perf.log",
		"torch-2.11-cuda/g13b_cg_rerecord_limit_noinline.perf.log", "torch-2.11-cuda/g03_cg_dynamic.perf.log"} {
		a := triage.Analyze(triage.LoadReport(t, Fx(name)), nil, nil)
		var txt, md strings.Builder
		render.WriteReportText(&txt, a, text.Options{Width: 200})
		render.WriteMarkdown(&md, a)
		for _, f := range a.Findings {
			txt.WriteString(f.Title + "\n" + f.Detail + "\n")
		}
		for what, s := range map[string]string{"text": txt.String(), "markdown": md.String()} {
			if strings.Contains(s, "(s)") {
				t.Errorf("%s of %s says (s):\n%s", what, name, s)
			}
		}
		if !strings.Contains(txt.String(), "· 1 input ·") {
			t.Errorf("the header of %s does not say 1 input:\n%s", name, txt.String())
		}
	}
	res := &compare.Result{FindingsNew: []string{"a", "b"}, FindingsGone: []string{"c"}}
	if got, _ := res.DecideVerdict(); got != "2 new findings; 1 finding gone" {
		t.Errorf("compare: %q", got)
	}
	res = &compare.Result{Settings: []compare.Change{{Key: "TORCHINDUCTOR_X"}}}
	if got, _ := res.DecideVerdict(); got != "no difference in compile time, caches or findings (1 other setting differs)" {
		t.Errorf("compare: %q", got)
	}
}

// A count no record supports is "not logged" only where the run's TORCH_LOGS is known to leave its name out; for
// logs alone nothing says which names were on (r07's triage log had graph_breaks,recompiles on and printed no
// recompile: it read "recompiles not logged"), so the count is "unknown" and says why, in every rendering.
func TestUnloggedCountOfLogsAloneIsUnknown(t *testing.T) {
	r07 := Fx("torch-2.14/r07_fullgraph.triage.log")
	a := triage.Analyze(triage.LoadReport(t, r07), nil, nil)
	if a.Evidence.LogsFrom == "run" || a.RecompilesCounted() {
		t.Fatalf("the test wants logs alone with no recompile record: %+v", a.Evidence)
	}
	const want = "recompiles unknown (no sign recompiles was on)"
	if got := a.RecompilesText(); got != want {
		t.Errorf("text: %q", got)
	}
	var md strings.Builder
	render.WriteMarkdown(&md, a)
	if !strings.Contains(md.String(), " | unknown (no sign recompiles was on) | ") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if got := render.CountsText(a.Report.Counts, a); !strings.Contains(got, ", recompiles unknown, ") {
		t.Errorf("per rank: %s", got)
	}
	if s := gate.Summary(gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1})); !strings.Contains(s, "recompiles unknown") {
		t.Errorf("gate: %s", s)
	}
	if got := a.UncountedWhy(findings.KindRecompile); got != "no sign recompiles were logged (TORCH_LOGS)" {
		t.Errorf("why: %q", got)
	}
	// the run's TORCH_LOGS is known: its name was off, and the count is "not logged"
	a = triage.AnalyzeRun(triage.LoadReport(t, r07), nil, nil, &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogs: "graph_breaks", TorchLogsSet: true})
	if got := a.RecompilesText(); got != "recompiles not logged" {
		t.Errorf("run text: %q", got)
	}
	md.Reset()
	render.WriteMarkdown(&md, a)
	if !strings.Contains(md.String(), " | not logged | ") {
		t.Errorf("run markdown:\n%s", md.String())
	}
	if got := a.UncountedWhy(findings.KindRecompile); got != "recompiles were not logged (TORCH_LOGS)" {
		t.Errorf("run why: %q", got)
	}
	if got := a.UncountedWhy(findings.KindGraphBreak); got != "" {
		t.Errorf("breaks were logged: %q", got)
	}
}
