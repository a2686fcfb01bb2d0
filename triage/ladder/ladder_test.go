package ladder

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

func exit(code int) *report.RunFacts {
	out := report.OutcomeCompleted
	if code != 0 {
		out = report.OutcomeFailed
	}
	return &report.RunFacts{Outcome: out, ExitCode: &code, Direct: true, TorchLogsSet: true, TorchImported: 1}
}

// Each tier's result comes from the analysis of its run: the recorded tiers of the injected bugs (torch 2.14 and 2.6).
func TestClassifyRecordedTiers(t *testing.T) {
	cases := []struct {
		log  string
		code int
		want Result
		why  string
	}{
		{"ladder.compile_error.inductor.log", 1, CompileError, "CppCompileError"},
		{"plain.runtime_error.log", 1, RuntimeError, "unhandled error"},
		{"minifier.aot_l4_accuracy.run.log", 1, Wrong, "AccuracyError"},
		// the repro's own comparison printed MISMATCH and exited 1: torch printed no error, so no class is claimed
		{"ladder.accuracy.inductor.log", 1, Failed, "no error torch printed"},
		{"ladder.bad_decomp.aot_eager_decomp_partition.log", 1, Failed, "a guess"},
		{"ladder.accuracy.aot_eager.log", 0, OK, ""},
	}
	for _, v := range []string{"torch-2.14", "torch-2.6"} {
		for _, c := range cases {
			a := triagetest.AnalyzeRun(t, testlogs.Path(t, "compile-wrong", v, c.log), exit(c.code))
			got := classify(a)
			if got.Result != c.want || !strings.Contains(got.Why, c.why) {
				t.Errorf("%s/%s: %s (%s), want %s with %q", v, c.log, got.Result, got.Why, c.want, c.why)
			}
		}
	}
}

// A tier the tool stopped is a hang in the tool's words, never the program's crash; one that never launched did
// not start.
func TestClassifyStopsAreTheTools(t *testing.T) {
	log := testlogs.Path(t, "compile-wrong", "torch-2.14", "ladder.accuracy.eager.log")
	got := classify(triagetest.AnalyzeRun(t, log, &report.RunFacts{Outcome: report.OutcomeStopped, StopReason: "timed out after 10m0s"}))
	if got.Result != Hang || !strings.Contains(got.Why, "torchtriage stopped it (timed out after 10m0s)") {
		t.Errorf("stopped: %+v", got)
	}
	got = classify(triagetest.AnalyzeRun(t, log, &report.RunFacts{Outcome: report.OutcomeDidNotStart, Error: "exec: \"pythn\": not found"}))
	if got.Result != DidNotStart || !strings.Contains(got.Why, "pythn") {
		t.Errorf("did not start: %+v", got)
	}
}

// The summary names the first bad tier with words true for that tier, the passing tiers before it, and nothing of
// the tiers not run; a ladder that passed says what was (not) checked.
func TestSummaryWords(t *testing.T) {
	tiers := func(results ...Result) *Ladder {
		l := &Ladder{}
		for i, r := range results {
			l.Tiers = append(l.Tiers, Tier{Backend: Backends[i], Result: r})
			if r != OK && r != NotRun && l.FirstBad == nil {
				b := Backends[i]
				l.FirstBad = &b
			}
		}
		return l
	}
	for _, c := range []struct {
		l         *Ladder
		want, not string
	}{
		{tiers(OK, OK, OK, Wrong), "eager, aot_eager and aot_eager_decomp_partition pass; inductor fails (wrong): Inductor's code generation", "every tier"},
		{tiers(OK, OK, Wrong, NotRun), "eager and aot_eager pass; aot_eager_decomp_partition fails (wrong): Inductor's decompositions or its partitioner", "inductor"},
		{tiers(CompileError, NotRun, NotRun, NotRun), "eager fails (compile_error): TorchDynamo's graph capture, or the program itself", "aot_eager"},
		{tiers(NotCompiled, NotRun, NotRun, NotRun), "eager shows nothing (not_compiled)", "fails"},
		{tiers(OK, OK, OK, OK), "every tier passed: eager, aot_eager, aot_eager_decomp_partition, inductor ran to their end (results not checked", "fails"},
	} {
		got := summaryOf(c.l)
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("summary %q: want %q, not %q", got, c.want, c.not)
		}
	}
	l := tiers(OK, OK, OK, OK)
	l.AccuracyChecked = true
	if got := summaryOf(l); !strings.Contains(got, "judged no graph") { // inductor's tier did not say it was checked
		t.Errorf("checked ladder whose inductor tier was not judged: %q", got)
	}
}

// The bisector's verdict in words true for it.
func TestBisectWords(t *testing.T) {
	for log, want := range map[string]string{
		"bisector.run_accuracy.log":   "the bisector blames the inductor backend, subsystem `lowerings` at number 2: relu",
		"bisector.run_bad_decomp.log": "the bisector blames the aot_eager_decomp_partition backend, subsystem `decomposition` at number 3: <OpOverload(op='aten.cos', overload='default')>",
	} {
		got := BisectWords(scanFile(testlogs.Path(t, "compile-wrong", "torch-2.14", log)).Bisect)
		if got != want {
			t.Errorf("%s: %q, want %q", log, got, want)
		}
	}
	if got := BisectWords(nil); !strings.Contains(got, "no verdict") {
		t.Errorf("no verdict: %q", got)
	}
}

// Headline is the summary and the first bad tier's why, in the ladder's own words; no why when every tier passed.
func TestHeadline(t *testing.T) {
	bad := "aot_eager"
	l := &Ladder{Experiment: "ladder-1", FirstBad: &bad, Summary: "aot_eager is the first bad tier",
		Tiers: []Tier{{Backend: "eager", Result: OK}, {Backend: "aot_eager", Result: CompileError, Why: "compile error: X"}}}
	if got, want := Headline(l), "ladder ladder-1: aot_eager is the first bad tier — aot_eager: compile error: X"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	l.FirstBad, l.Summary = nil, "every tier passed"
	if got := Headline(l); got != "ladder ladder-1: every tier passed" {
		t.Errorf("%q", got)
	}
}
