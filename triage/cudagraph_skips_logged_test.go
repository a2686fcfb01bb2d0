package triage_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Which skip messages reach the log (docs: gpu-cuda-graphs-2.11.md, opening notes and §2; torch-log-formats.md
// §1, §6): every skip goes through one W-level emitter; from 2.11 it logs under the cudagraphs artifact, which is
// not off by default, so skips print under every preset (g02 and g13b show theirs in all five); 2.6 used
// perf_hints, off by default, so a 2.6 run shows skips only with perf_hints (or cudagraphs/all). A zero is a
// count only where skips would have printed; elsewhere text, Markdown, JSON and the verdict basis say "not
// logged" (as they do for breaks and recompiles).
func TestCudagraphSkipsLogged(t *testing.T) {
	clean := Fx("torch-2.6/r06_dist_funcol.triage.log") // no break, recompile or skip
	cases := []struct {
		name      string
		run       *report.RunFacts
		logged    bool
		textCount string
	}{
		{"2.6, breaks preset", &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogsSet: true, TorchLogs: "graph_breaks,recompiles", TorchVersion: "2.6.0+debian"},
			false, "cudagraph skips not logged"},
		{"2.6, perf_hints", &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogsSet: true, TorchLogs: "perf_hints,graph_breaks,recompiles", TorchVersion: "2.6.0+debian"},
			true, "cudagraph skips 0"},
		{"2.11, breaks preset", &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogsSet: true, TorchLogs: "graph_breaks,recompiles", TorchVersion: "2.11.0+cu130"},
			true, "cudagraph skips 0"},
		{"version unknown, breaks preset", &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogsSet: true, TorchLogs: "graph_breaks,recompiles"},
			false, "cudagraph skips not logged"},
	}
	for _, c := range cases {
		a := analyzeRun(t, clean, c.run)
		if a.Evidence.CudagraphSkipsLogged != c.logged || a.Verdict.State != triage.StateSteady {
			t.Errorf("%s: logged %v (want %v), verdict %s", c.name, a.Evidence.CudagraphSkipsLogged, c.logged, a.Verdict.Summary)
		}
		var txt, md strings.Builder
		render.WriteReport(&txt, a, "text", text.Options{Width: 300})
		render.WriteMarkdown(&md, a)
		j, _ := json.Marshal(render.JSONOf(a))
		nothing := "Nothing to report: no graph break, recompile, limit hit, CUDA-graph skip or error in the input."
		if c.logged {
			if !strings.Contains(txt.String(), c.textCount) || !strings.Contains(txt.String(), nothing) ||
				!strings.Contains(string(j), `"cudagraph_skips_logged":true`) || !strings.Contains(md.String(), "| 0 distinct (0 records) | 0 | 0 | 0 | 0 |") {
				t.Errorf("%s:\n%s\n%s\n%s", c.name, txt.String(), md.String(), j)
			}
			continue
		}
		if !strings.Contains(txt.String(), c.textCount) || strings.Contains(txt.String(), "CUDA-graph skip or error") ||
			!strings.Contains(txt.String(), "Nothing to report: no graph break, recompile, limit hit or error in the input; CUDA-graph skips were not logged") ||
			!strings.Contains(string(j), `"cudagraph_skips_logged":false`) ||
			!strings.Contains(md.String(), "| 0 distinct (0 records) | 0 | 0 | not logged | 0 |") {
			t.Errorf("%s:\n%s\n%s\n%s", c.name, txt.String(), md.String(), j)
		}
	}

	// a log alone: a skip shows skips were logged; a W-level [__cudagraphs] line is no sign that TORCH_LOGS had
	// cudagraphs (it prints under every preset), so partitions and re-recordings stay unknown
	a := analyzeRun(t, Fx("torch-2.11-cuda/g13b_cg_rerecord_limit_noinline.triage.log"), nil)
	if !a.Evidence.CudagraphSkipsLogged || a.Report.Counts.CudagraphSkips != 1 || a.Evidence.CudagraphsOn() || triage.CudagraphsLogged(a) {
		t.Errorf("g13b triage: evidence %+v", a.Evidence)
	}
	limit := 3
	if why := gate.MissingEvidence(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, MaxCudagraphRerecords: &limit}); !strings.Contains(why, "no cudagraphs records") {
		t.Errorf("g13b triage --max-cudagraph-rerecords: missing evidence %q", why)
	}
	// check's counted line claims no 0 of what was not logged; of a log alone (TORCH_LOGS not known) "unknown",
	// as the report says
	res := gate.Check(analyzeRun(t, Fx("torch-2.11-cuda/g02_cg_mutated_input.triage.log"), nil), gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCudagraphSkips: true})
	var buf strings.Builder
	gate.WriteGateRooted(&buf, "text", res, "")
	if !strings.Contains(buf.String(), "1 CUDA-graph skip, non-cudagraphable partitions unknown, CUDA-graph re-recordings unknown") {
		t.Errorf("g02 triage check:\n%s", buf.String())
	}
	res = gate.Check(analyzeRun(t, clean, cases[0].run), gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCudagraphSkips: true})
	buf.Reset()
	gate.WriteGateRooted(&buf, "text", res, "")
	if !strings.Contains(buf.String(), "CUDA-graph skips not logged") {
		t.Errorf("2.6 breaks-preset check:\n%s", buf.String())
	}
	// V-level cudagraphs lines do show it
	if a := analyzeRun(t, Fx("torch-2.11-cuda/g13b_cg_rerecord_limit_noinline.perf.log"), nil); !a.Evidence.CudagraphsOn() {
		t.Errorf("g13b perf: evidence %+v", a.Evidence)
	}
}
