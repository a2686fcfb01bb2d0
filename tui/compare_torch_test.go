package tui

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// The diff screen's compare says the torch version the header states for each run (a replay's recording, a run's
// meta), not "neither side states it" under a header that says torch 2.14.1; the run's own analysis is not changed.
func TestCompareStatesTheHeadersTorch(t *testing.T) {
	side := func(id int) (*runView, *triage.Analysis) {
		log := map[int]string{1: "gb_recompile.triage.log", 2: "gb_recompile.recompiles_verbose.log"}[id]
		l, err := report.Load([]string{testlogs.Path(t, "fixtures", "torch-2.14", log)}, report.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		an := triage.Analyze(l.Report, nil, nil)
		return &runView{id: id, meta: runs.Meta{TorchVersion: "2.14.1", Preset: "breaks"}, snap: &snapshot{analysis: an}}, an
	}
	a, anA := side(1)
	b, _ := side(2)
	var out strings.Builder
	compare.WriteCompareText(&out, "run 1", "run 2", compare.Compare(compareSide(a), compareSide(b)))
	t.Log(out.String())
	if strings.Contains(out.String(), "torch version: neither side states it") {
		t.Errorf("compare says no torch version under a header that states one:\n%s", out.String())
	}
	if anA.Report.TorchVersion != nil {
		t.Errorf("the run's own report was changed: %v", *anA.Report.TorchVersion)
	}
}
