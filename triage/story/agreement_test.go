package story

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
)

// A run whose ranks were not compared (breaks and recompiles not logged) then a run whose ranks differ: the delta
// says the agreement was not compared, never nothing (both read "not agreeing" and the change went unsaid).
func TestDeltaOfAgreementNotCompared(t *testing.T) {
	notCompared := triage.RankAgreement{Groups: []triage.RankGroup{{Ranks: []int{0, 1}}},
		NotCompared: "graph breaks and recompiles were not logged (TORCH_LOGS)", Summary: "not compared: …"}
	differ := triage.RankAgreement{Groups: []triage.RankGroup{{Ranks: []int{1}}, {Ranks: []int{0}, Extra: []string{"graph break"}}},
		Summary: "rank 0 differs from rank 1: extra graph break"}
	run := func(id int, ra triage.RankAgreement, logged bool) *Run {
		return &Run{ID: id, Counts: &Counts{}, an: &triage.Analysis{Report: &triage.Report{}, RankAgreement: ra},
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
