package story

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// A run whose ranks were not compared (breaks and recompiles not logged) then a run whose ranks differ: the delta
// says the agreement was not compared, never nothing (both read "not agreeing" and the change went unsaid).
func TestDeltaOfAgreementNotCompared(t *testing.T) {
	notCompared := ranks.RankAgreement{Groups: []ranks.RankGroup{{Ranks: []int{0, 1}}},
		NotCompared: "graph breaks and recompiles were not logged (TORCH_LOGS)", Summary: "not compared: …"}
	differ := ranks.RankAgreement{Groups: []ranks.RankGroup{{Ranks: []int{1}}, {Ranks: []int{0}, Extra: []string{"graph break"}}},
		Summary: "rank 0 differs from rank 1: extra graph break"}
	run := func(id int, ra ranks.RankAgreement, logged bool) *Run {
		return &Run{ID: id, Counts: &Counts{}, an: &triage.Analysis{Report: &report.Report{}, RankAgreement: ra},
			Logged: Logged{Torch: true, GraphBreaks: logged, Recompiles: logged}}
	}
	d := buildDelta(run(1, notCompared, false), run(2, differ, true), "same command")
	if d.Agreement != "" || !strings.Contains(strings.Join(d.NotCompared, "\n"), "rank agreement") {
		t.Errorf("delta %+v: want the agreement named not compared", d)
	}
	// both not compared: nothing to say about agreement
	d = buildDelta(run(1, notCompared, false), run(2, notCompared, false), "same command")
	if d.Agreement != "" || strings.Contains(strings.Join(d.NotCompared, "\n"), "rank agreement") {
		t.Errorf("delta %+v: two runs not compared said something of agreement", d)
	}
}

// A run of two ranks that differ, then a run of one process that breaks: nothing agrees in the second, so the
// delta does not say the agreement was regained (it did: one process "agreed" with itself); it says the ranks were
// not compared. A run that printed nothing shows no rank prefix whatever its ranks (a torchrun job fixed): no record
// shows what each rank did, so its ranks are not compared either (its report says so); the difference that is
// gone is the fixed item the delta names, not an agreement regained.
func TestDeltaToOneProcessIsNotRegained(t *testing.T) {
	differ := ranks.RankAgreement{Groups: []ranks.RankGroup{{Ranks: []int{1}}, {Ranks: []int{0}, Extra: []string{"graph break"}}},
		Summary: "rank 0 differs from rank 1: extra graph break"}
	run := func(id int, ra ranks.RankAgreement, breaks int) *Run {
		return &Run{ID: id, Counts: &Counts{GraphBreaks: breaks}, an: &triage.Analysis{Report: &report.Report{}, RankAgreement: ra},
			Logged: Logged{Torch: true, GraphBreaks: true, Recompiles: true}}
	}
	for _, one := range []ranks.RankAgreement{ranks.RankAgree(nil, nil), ranks.RankAgree([]int{0}, nil)} {
		d := buildDelta(run(1, differ, 1), run(2, one, 1), "same command")
		if d.Agreement != "" || !strings.Contains(strings.Join(d.NotCompared, "\n"), "rank agreement: run 2: ") {
			t.Errorf("%s: delta %+v: want no agreement regained, and the agreement named not compared", one.Summary, d)
		}
		if d := buildDelta(run(1, differ, 1), run(2, one, 0), "same command"); d.Agreement != "" ||
			!strings.Contains(strings.Join(d.NotCompared, "\n"), "rank agreement: run 2: ") {
			t.Errorf("%s, nothing printed: delta %+v: want no agreement regained, and the agreement named not compared", one.Summary, d)
		}
		if d := buildDelta(run(1, one, 1), run(2, differ, 1), "same command"); d.Agreement != "" {
			t.Errorf("%s, then ranks that differ: delta %+v: nothing was lost", one.Summary, d)
		}
	}
}

// A run the tool stopped before any torch output is not said to have "printed no torch output" in the delta
// against its base: the stop was the tool's (the verdict's words); a run that finished silent keeps them.
func TestDeltaNamesTheToolsStopOfASilentRun(t *testing.T) {
	base := &Run{ID: 1, Counts: &Counts{}, an: &triage.Analysis{Report: &report.Report{}},
		Logged: Logged{Torch: true, GraphBreaks: true, Recompiles: true}}
	silent := func(f *report.RunFacts) *Run {
		return &Run{ID: 2, Counts: &Counts{}, an: &triage.Analysis{Report: &report.Report{}, Run: f}}
	}
	zero := 0
	for _, c := range []struct {
		run  *Run
		want string
	}{
		{silent(&report.RunFacts{Outcome: report.OutcomeStopped, StopReason: "timed out after 2s"}),
			"graph breaks: run 2 was stopped by torchtriage (timed out after 2s) before it printed any torch output"},
		{silent(&report.RunFacts{Outcome: report.OutcomeCompleted, ExitCode: &zero}), "graph breaks: run 2 printed no torch output"},
	} {
		d := buildDelta(base, c.run, "same command")
		if nc := strings.Join(d.NotCompared, "\n"); !strings.Contains(nc, c.want) {
			t.Errorf("not compared:\n%s\nwant %q", nc, c.want)
		}
	}
}
