package findings

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/steady"
)

// CUDA graphs recorded after warm-up in a run whose probe read cudagraph_skip_dynamic_graphs = True: the setting
// meant to stop per-size recordings did not, and the finding says so and why (it leaves out only graphs with
// symbolic-shape inputs). The steps are placed by hand in the probe's own format (no GPU run with steps is
// recorded yet): graph 0/0 recorded at steps 1 and 30 of a 5-step warm-up. Before, the finding said nothing of the
// setting; without it, it still says nothing.
func TestCudagraphRecordingWithSkipDynamicGraphs(t *testing.T) {
	set, err := playbooks.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	evs := []probe.StepEvent{{Ev: "compile", Trigger: probe.TriggerDynamo, CompileID: "0/0", Frame: "f"}}
	for _, s := range []int{1, 30} {
		evs = append(evs, probe.StepEvent{Ev: "compile", Opt: s, Trigger: probe.TriggerCudagraph, CompileID: "0/0", Frame: "f"})
	}
	five := 5
	a := steady.Of(&report.RunFacts{Steps: []probe.StepLog{{Rank: 0, NoRank: true, Events: evs, Ended: true, Opt: 40,
		Optimizer: "SGD"}}, WarmupSteps: &five}, -1)
	on := []report.ProcessInfo{{Config: map[string]any{SkipDynamicGraphsKey: true}}}
	off := []report.ProcessInfo{{Config: map[string]any{SkipDynamicGraphsKey: false}}}
	for _, c := range []struct {
		probes []report.ProcessInfo
		says   bool
	}{{on, true}, {off, false}, {nil, false}} {
		fs := WarmupFindings(a, set, c.probes)
		if len(fs) != 1 {
			t.Fatalf("%d findings", len(fs))
		}
		f := fs[0]
		said := strings.Contains(f.Title, "with cudagraph_skip_dynamic_graphs on") &&
			strings.Contains(f.Detail, "leaves out of CUDA graphs only a graph whose inputs have symbolic shapes")
		if said != c.says || !strings.Contains(f.Title, "1 CUDA-graph recording at step 30") {
			t.Errorf("config %v: title %q\n%s", c.probes, f.Title, f.Detail)
		}
	}
}
