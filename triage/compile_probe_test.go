package triage_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// A process whose logs say nothing about compile time gets it from the probe: total = frame compiles + lazy
// backward, phases exclusive, cache counters; risky knobs are findings with their playbook.
func TestCompileFromProbe(t *testing.T) {
	p := report.ProcessInfo{Rank: 0, Torch: "2.14.1", CompileTimes: map[string]float64{
		report.CtFrame: 10, report.CtBackend: 8, report.CtBackward: 2, report.CtInductor: 7, report.CtWait: 3},
		Counters: map[string]map[string]float64{"inductor": {"fxgraph_cache_miss": 4}, "frames": {"ok": 2}},
		Env:      map[string]string{"TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1", "TORCHINDUCTOR_COMPILE_THREADS": "1"}}
	a := triage.Analyze(&report.Report{}, nil, []report.ProcessInfo{p})
	c := a.Report.Compile
	if c == nil || c.Source != report.SourceProbe || *c.TotalS != 12 || *c.ByPhase.Dynamo != 2 || *c.ByPhase.AOT != 3 ||
		*c.ByPhase.Inductor != 4 || *c.ByPhase.Triton != 3 || c.Caches["fx_graph"].Miss != 4 || c.PerRank["0"].Frames != 2 {
		data, _ := json.Marshal(c)
		t.Fatalf("compile from probe: %s", data)
	}
	if _, ok := c.Caches["aot_autograd"]; ok {
		t.Error("no AOT lookup counted, yet an aot_autograd entry")
	}
	pb := map[string]string{}
	for _, f := range a.Findings {
		pb[f.ID] = f.Playbook
	}
	if pb["cache_miss:knob:force_disable_caches"] != "cache-disabled" || pb["compile_time:knob:compile_threads"] != "compile-autotune" {
		t.Errorf("knob findings %v", pb)
	}
	// analysing again gives the same (live runs analyse one report many times)
	if again := triage.Analyze(a.Report, nil, []report.ProcessInfo{p}).Report.Compile; *again.TotalS != 12 {
		t.Errorf("second analysis: %v", *again.TotalS)
	}
}

// Counts a source cannot tell are absent from the JSON, never 0.
func TestCacheStatsJSON(t *testing.T) {
	s := report.CacheStats{Hit: 1, Writes: 0, Known: report.KnowHit | report.KnowWrites}
	data, _ := json.Marshal(s)
	if string(data) != `{"hit":1,"writes":0}` {
		t.Errorf("json %s", data)
	}
	var back report.CacheStats
	if err := json.Unmarshal(data, &back); err != nil || back.Hit != 1 || back.Known != s.Known {
		t.Errorf("round trip %+v %v", back, err)
	}
	if got := s.String(); !strings.Contains(got, "1 hit") || strings.Contains(got, "miss") {
		t.Errorf("string %q", got)
	}
}

// A process the probe gave rank 0 only by default (no RANK, no process group) is no rank: its compile time is the
// process's ("process" in the table, no per_rank entry, as for a log's process without rank), never "rank 0"; one
// that RANK named keeps its rank.
func TestCompileFromProbeOfAProcessWithoutRank(t *testing.T) {
	for _, c := range []struct {
		source, row string
		perRank     int
	}{{"default", "process", 0}, {"env", "rank 0", 1}} {
		p := report.ProcessInfo{Rank: 0, RankSource: c.source, Torch: "2.14.1", CompileTimes: map[string]float64{report.CtFrame: 1, report.CtBackend: 0.5}}
		a := triage.Analyze(&report.Report{}, nil, []report.ProcessInfo{p})
		comp := a.Report.Compile
		if comp == nil || comp.TotalS == nil || *comp.TotalS != 1 || len(comp.PerRank) != c.perRank {
			t.Fatalf("%s: compile %+v", c.source, comp)
		}
		var b strings.Builder
		render.WriteReport(&b, a, "text", text.Options{Width: 200})
		if !strings.Contains(b.String(), "\n  "+c.row+" ") {
			t.Errorf("%s: no %q row:\n%s", c.source, c.row, b.String())
		}
	}
}

// The kernel-compile phase (torch's triton_compile_time_us: async_compile's precompile and wait) is Triton on a GPU
// and C++ on a CPU: the table heads it "kernels", never "triton" (a CPU run's table claimed Triton had run); the
// JSON keeps torch's field name (triton_s).
func TestKernelCompilePhaseIsNotCalledTriton(t *testing.T) {
	p := report.ProcessInfo{Rank: 0, Torch: "2.14.1", CompileTimes: map[string]float64{report.CtFrame: 2, report.CtBackend: 1.5, report.CtInductor: 1, report.CtWait: 0.5}}
	a := triage.Analyze(&report.Report{}, nil, []report.ProcessInfo{p})
	var b strings.Builder
	render.WriteReport(&b, a, "text", text.Options{Width: 200})
	if strings.Contains(b.String(), "triton") || !strings.Contains(b.String(), " kernels ") {
		t.Errorf("text:\n%s", b.String())
	}
	b.Reset()
	render.WriteReport(&b, a, "json", text.Options{})
	if !strings.Contains(b.String(), `"triton_s": 0.5`) {
		t.Errorf("json lacks triton_s: %s", b.String())
	}
}
