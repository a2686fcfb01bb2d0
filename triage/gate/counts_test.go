package gate_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// check's counts carry every field report's counts have, with the same values when nothing is left out as
// expected (--count-expected), on every real H100 fixture; the text's "counted:" line shows the quantities the
// rules given are about: CUDA-graph skips, partitions and re-recordings with a CUDA-graph rule (before: only
// breaks, recompiles, limit hits and errors, so a failed --no-cudagraph-skips read "counted: 0 … 0").
func TestGateCountsAreReportCounts(t *testing.T) {
	logs, _ := filepath.Glob(filepath.Join(fixtures, "torch-2.11-cuda", "*.log"))
	if len(logs) < 20 {
		t.Fatalf("%d fixtures", len(logs))
	}
	for _, p := range logs {
		a := triagetest.AnalyzeFiles(t, "torch-2.11-cuda/"+filepath.Base(p))
		res := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, CountExpected: true})
		var rep, gate map[string]any
		b, _ := json.Marshal(a.Report.Counts)
		json.Unmarshal(b, &rep)
		b, _ = json.Marshal(res.Counts)
		json.Unmarshal(b, &gate)
		for k, v := range rep {
			if gate[k] != v {
				t.Errorf("%s: counts.%s: check %v, report %v", filepath.Base(p), k, gate[k], v)
			}
		}
	}
	three := 3
	cases := []struct {
		log  string
		o    gate.Options
		want []string
	}{
		{"g01_cg_cpu_input.perf.log", gate.Options{NoCudagraphSkips: true}, []string{"0 CUDA-graph skips", "1 non-cudagraphable partition,"}},
		{"g02_cg_mutated_input.triage.log", gate.Options{NoCudagraphSkips: true}, []string{"1 CUDA-graph skip,", "non-cudagraphable partitions"}},
		{"g13b_cg_rerecord_limit_noinline.perf.log", gate.Options{MaxCudagraphRerecords: &three}, []string{"3 CUDA-graph re-recordings"}},
	}
	for _, c := range cases {
		c.o.MaxGraphBreaks, c.o.MaxRecompiles = -1, -1
		res := gate.Check(triagetest.AnalyzeFiles(t, "torch-2.11-cuda/"+c.log), c.o)
		var buf strings.Builder
		if err := gate.WriteGateRooted(&buf, "text", res, ""); err != nil {
			t.Fatal(err)
		}
		counted := buf.String()[strings.LastIndex(buf.String(), "counted: "):]
		for _, w := range c.want {
			if !strings.Contains(counted, w) {
				t.Errorf("%s %v: %q lacks %q", c.log, res.Rules, strings.TrimSpace(counted), w)
			}
		}
	}
	// no CUDA-graph rule and nothing logged about CUDA graphs: no CUDA-graph count is claimed
	res := gate.Check(triagetest.AnalyzeFiles(t, "torch-2.14/r05_dist_c10d.triage.log"), gate.Options{MaxGraphBreaks: 1, MaxRecompiles: -1})
	var buf strings.Builder
	gate.WriteGateRooted(&buf, "text", res, "")
	if strings.Contains(buf.String(), "CUDA-graph") || strings.Contains(buf.String(), "partitions") {
		t.Errorf("breaks gate on a log without CUDA graphs: %s", buf.String())
	}
}

// --no-compile-errors names what it found: runtime errors (processes that died of an uncaught exception) or
// compile errors, with how many, not "fatal error".
func TestGateNamesTheErrors(t *testing.T) {
	code := 1
	a := triagetest.AnalyzeRun(t, filepath.Join(fixtures, "torch-2.11-cuda/g09a_nccl_same_gpu.triage.log"),
		&report.RunFacts{Outcome: report.OutcomeFailed, ExitCode: &code, TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true})
	res := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileErrors: true})
	if res.Passed || len(res.Failures) != 1 || !strings.HasPrefix(res.Failures[0].Message, "2 runtime errors: DistBackendError") ||
		res.DidNotComplete != "exited with code 1" {
		t.Errorf("g09a: %+v", res)
	}
	// a completed run is complete, whatever else it logged
	a = triagetest.AnalyzeRun(t, filepath.Join(fixtures, "torch-2.14/r05_dist_c10d.triage.log"), &report.RunFacts{Outcome: report.OutcomeCompleted})
	if res := gate.Check(a, gate.Options{MaxGraphBreaks: 1, MaxRecompiles: -1}); res.DidNotComplete != "" || !res.Passed {
		t.Errorf("completed run: %+v", res)
	}
}
