package triage_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// torch.compile(DDP(nn.Sequential(…))) on two gloo ranks (testdata/recorded/ddp-compile): Dynamo breaks in DDP's
// forward wrapper (by design) and compiles 26 frames on each rank of 2.14.1 (1 on 2.6), yet no graph: the probes'
// counters hold no stats.unique_graphs (Dynamo counts one for every graph it hands the backend), 2.6's TORCH_TRACE
// compiles have no op, and the model ran eager. The report read "steady state: no unexpected graph break or
// recompile, ranks agree (2 graph breaks by design)" and check --max-graph-breaks 0 --max-recompiles 0 passed.
// The same job with the model a class of the script's own (ddp_net.py) compiles its forward: 1 unique graph, steady.
func TestDDPCompileOfNoGraphIsNoEvidence(t *testing.T) {
	runs := filepath.Join("..", "testdata", "recorded", "ddp-compile", "runs")
	for _, run := range []string{"0007-breaks", "0011-distributed"} {
		dir := filepath.Join(runs, run)
		js := triagetest.ReportJSON(t, dir)
		var rep struct {
			Evidence struct {
				NoGraphCompiled string `json:"no_graph_compiled"`
			} `json:"evidence"`
			Verdict struct {
				State        string `json:"state"`
				Summary      string `json:"summary"`
				UniqueGraphs int    `json:"unique_graphs"`
			} `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(js), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Verdict.State != "no_evidence" || !strings.Contains(rep.Verdict.Summary, "but no graph") ||
			rep.Verdict.UniqueGraphs != 0 || !strings.Contains(rep.Evidence.NoGraphCompiled, "no graph") {
			t.Errorf("%s: evidence %+v verdict %+v", run, rep.Evidence, rep.Verdict)
		}
		code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: 0}}, dir)
		if code != gate.ExitNoEvidence || !strings.Contains(errb+out, "no graph") {
			t.Errorf("%s: check: exit %d\n%s%s", run, code, out, errb)
		}
		text := triagetest.ReportText(t, 300, dir)
		if strings.Contains(text, "steady state") {
			t.Errorf("%s: report:\n%s", run, text)
		}
	}
	dir := filepath.Join(runs, "0012-breaks")
	text := triagetest.ReportText(t, 300, dir)
	if l := lineWith(text, "Verdict:"); !strings.Contains(l, "steady state") || !strings.Contains(l, "1 unique graph") {
		t.Errorf("0012 (the script's own module): %q\n%s", l, text)
	}
	if code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: 0, RanksAgree: true}}, dir); code != 0 {
		t.Errorf("0012: check: exit %d\n%s%s", code, out, errb)
	}
}
