package compare_test

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

func Side(t *testing.T, path string) compare.Side {
	t.Helper()
	return compare.Side{Name: path, Analysis: triage.Analyze(triagetest.LoadReport(t, path), nil, nil)}
}

func Fixture(v, name string) string { return filepath.Join(compileFixtures, "torch-"+v, name) }

// Cold vs warm names the caches as the cause; the same command twice warm says no difference.
func TestCompareColdWarm(t *testing.T) {
	for _, v := range []string{"2.6", "2.14"} {
		res := compare.Compare(Side(t, Fixture(v, "c01_mlp.cold.trace")), Side(t, Fixture(v, "c01_mlp.warm.trace")))
		if res.Same || !strings.Contains(res.Verdict, "FX graph cache miss → hit") || !strings.HasPrefix(res.Verdict, "-") {
			t.Errorf("%s cold → warm: %q", v, res.Verdict)
		}
		res = compare.Compare(Side(t, Fixture(v, "c01_mlp.warm.trace")), Side(t, Fixture(v, "c01_mlp.cold.trace")))
		if !strings.Contains(res.Verdict, "FX graph cache hit → miss") || !strings.HasPrefix(res.Verdict, "+") || len(res.Frames) == 0 {
			t.Errorf("%s warm → cold: %q", v, res.Verdict)
		}
		// two traces record no settings: what they show is the same, their settings were not compared
		res = compare.Compare(Side(t, Fixture(v, "c01_mlp.warm.trace")), Side(t, Fixture(v, "c01_mlp.warm2.trace")))
		if res.Same || !strings.HasPrefix(res.Verdict, "no difference in what both sides show") ||
			!strings.Contains(strings.Join(res.NotCompared, "\n"), "settings: neither side has a probe file") {
			t.Errorf("%s warm twice: %q %q", v, res.Verdict, res.NotCompared)
		}
		one := Side(t, Fixture(v, "c01_mlp.cold.trace"))
		if res := compare.Compare(one, one); !res.Same {
			t.Errorf("%s the same run twice: %q", v, res.Verdict)
		}
	}
}

// A knob that differs between the runs is named (probe data), and named as the cache's cause.
func TestCompareNamesKnob(t *testing.T) {
	a, b := Side(t, Fixture("2.14", "c01_mlp.warm.trace")), Side(t, Fixture("2.14", "c01_mlp.keytag.trace"))
	a.Probes = []report.ProcessInfo{{Rank: 0, Torch: "2.14.1", Env: map[string]string{"TORCHINDUCTOR_CACHE_DIR": "/tmp/c"}}}
	b.Probes = []report.ProcessInfo{{Rank: 0, Torch: "2.14.1", Env: map[string]string{"TORCHINDUCTOR_CACHE_DIR": "/tmp/c", "TORCH_COMPILE_CACHE_KEY_TAG": "v2"}}}
	res := compare.Compare(a, b)
	if !strings.Contains(res.Verdict, "FX graph cache hit → miss (key changed: TORCH_COMPILE_CACHE_KEY_TAG: (unset) → v2)") {
		t.Errorf("verdict %q", res.Verdict)
	}
	w := Side(t, Fixture("2.14", "c01_mlp.warm.trace"))
	w2 := Side(t, Fixture("2.14", "c01_mlp.warm2.trace"))
	w.Probes = []report.ProcessInfo{{Rank: 0}}
	w2.Probes = []report.ProcessInfo{{Rank: 0, Env: map[string]string{"TORCHINDUCTOR_COMPILE_THREADS": "1"}}}
	if res := compare.Compare(w, w2); res.Same || !strings.Contains(res.Verdict, "settings differ: TORCHINDUCTOR_COMPILE_THREADS: (unset) → 1") {
		t.Errorf("knob only: %q", res.Verdict)
	}
}

// The gate: a warm baseline fails a cold run on compile time naming the frames; the 2-rank fresh/warm pair
// fails --max-compile-skew.
func TestGateCompile(t *testing.T) {
	for _, v := range []string{"2.6", "2.14"} {
		base := gate.NewBaseline(triage.Analyze(triagetest.LoadReport(t, Fixture(v, "c01_mlp.warm.trace")), nil, nil))
		if len(base.Compile) == 0 {
			t.Fatalf("%s: the baseline has no compile frames", v)
		}
		res := gate.Check(triage.Analyze(triagetest.LoadReport(t, Fixture(v, "c01_mlp.cold.trace")), nil, nil), gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: base})
		named := false
		for _, f := range res.Failures {
			named = named || strings.Contains(f.Message, "compile time of `inner` [0/0] grew")
		}
		if res.Passed || !named {
			t.Errorf("%s cold vs warm baseline: %+v", v, res.Failures)
		}
		all := 1.0 // 100 %
		res = gate.Check(triage.Analyze(triagetest.LoadReport(t, Fixture(v, "c01_mlp.warm2.trace")), nil, nil), gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: base, CompileTolerance: &all})
		if !res.Passed {
			t.Errorf("%s warm vs warm baseline (tolerance 100%%): %+v", v, res.Failures)
		}
		res = gate.Check(triage.Analyze(triagetest.LoadReport(t, Fixture(v, "c02_dist_mlp.mixed.trace")), nil, nil), gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, MaxCompileSkew: 2 * time.Second})
		if res.Passed || !strings.Contains(res.Failures[0].Message, "rank 1 compiled") {
			t.Errorf("%s skew: %+v", v, res.Failures)
		}
	}
}

// Findings on the 2-rank pair where rank 1 started with an empty cache dir.
func TestCompileFindingsColdRank(t *testing.T) {
	a := triage.Analyze(triagetest.LoadReport(t, Fixture("2.14", "c02_dist_mlp.mixed.trace")), nil, nil)
	kinds := map[string]string{}
	for _, f := range a.Findings {
		kinds[f.ID] = f.Playbook
	}
	if kinds["cache_miss:ranks:fx_graph"] != "cache-dir-not-shared" || kinds["compile_time:skew"] == "" {
		t.Errorf("findings %v", kinds)
	}
}

// "No difference" is said only of what both sides show. Two logs without compile time, one of them without
// graph_breaks/recompiles logging, compared nothing: the verdict says what was not compared, and no_difference
// is false (it read "no difference").
func TestCompareSaysWhatItDidNotCompare(t *testing.T) {
	logged, bare := fx("torch-2.14/gb_recompile.triage.log"), fx("torch-2.14/gb_recompile.no_torch_logs.log")
	res := compare.Compare(Side(t, logged), Side(t, bare))
	nc := strings.Join(res.NotCompared, "\n")
	if res.Same || !strings.Contains(res.Verdict, "not compared") || !strings.Contains(nc, "compile time and caches: neither side has any") ||
		!strings.Contains(nc, "graph breaks: B shows no sign they were logged") {
		t.Errorf("verdict %q, not compared %q", res.Verdict, res.NotCompared)
	}
	var b strings.Builder
	compare.WriteCompareText(&b, "A", "B", res)
	if !strings.Contains(b.String(), "not compared: compile time and caches: neither side has any") || !strings.Contains(b.String(), "not compared: graph breaks: B shows no sign they were logged") {
		t.Errorf("text:\n%s", b.String())
	}
	// the same log twice: its findings are compared (none differ), its compile time is not: not "no difference"
	res = compare.Compare(Side(t, logged), Side(t, logged))
	if res.Same || !strings.HasPrefix(res.Verdict, "no difference in what both sides show") || len(res.NotCompared) != 1 {
		t.Errorf("the same log twice: %q %q", res.Verdict, res.NotCompared)
	}
	// one side with compile time, the other without: not compared either
	res = compare.Compare(Side(t, Fixture("2.14", "c01_mlp.warm.trace")), Side(t, logged))
	if res.Same || !strings.Contains(strings.Join(res.NotCompared, "\n"), "compile time and caches: B has none") {
		t.Errorf("trace vs log: %q %q", res.Verdict, res.NotCompared)
	}
}

// A side without compile records (no TORCH_TRACE, no probe) shows no cache lookup: its caches are unknown, not
// "none", so nothing of them changed to "hit"; and "caches, versions and settings unchanged" is said only when
// nothing of them was named.
func TestCompareCachesOfASideWithoutCompileRecords(t *testing.T) {
	res := compare.Compare(Side(t, fx("torch-2.14/gb_recompile.triage.log")), Side(t, Fixture("2.14", "c01_mlp.warm.trace")))
	for _, c := range res.Caches {
		if c.Changed() {
			t.Errorf("cache %s changed %q against a side without compile records", c.Cache, c.Change())
		}
	}
	if strings.Contains(res.Verdict, "none → hit") || strings.Contains(res.Verdict, "caches, versions and settings unchanged") ||
		!strings.Contains(strings.Join(res.NotCompared, "\n"), "compile time and caches: A has none") {
		t.Errorf("verdict %q, not compared %q", res.Verdict, res.NotCompared)
	}
}

// Two runs the tool traced each write TORCH_TRACE to their own run dir: the tool's doing, and no setting that
// differs between them (compare of two real 2.14.1 runs listed "TORCH_TRACE: …/0008-trace/trace →
// …/0009-trace/trace" as their difference); a directory the user set differently still is one.
func TestCompareLeavesOutEachRunsOwnTraceDir(t *testing.T) {
	a, b := Side(t, Fixture("2.14", "c01_mlp.cold.trace")), Side(t, Fixture("2.14", "c01_mlp.warm.trace"))
	dirs := [2]string{"/w/.torchtriage/runs/0008-trace/trace", "/w/.torchtriage/runs/0009-trace/trace"}
	for i, s := range []*compare.Side{&a, &b} {
		s.Probes = []report.ProcessInfo{{Rank: 0, Torch: "2.14.1", Env: map[string]string{"TORCH_TRACE": dirs[i],
			"TORCHINDUCTOR_CACHE_DIR": "/tmp/c" + strconv.Itoa(i)}}}
		s.Analysis.Run = &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogsSet: true, ToolEnv: map[string]string{"TORCH_TRACE": dirs[i]}}
	}
	res := compare.Compare(a, b)
	var keys []string
	for _, c := range res.Settings {
		keys = append(keys, c.Key)
	}
	if slices.Contains(keys, "env.TORCH_TRACE") || !slices.Contains(keys, "env.TORCHINDUCTOR_CACHE_DIR") {
		t.Errorf("settings that differ: %v", keys)
	}
	// a trace dir the user gave each run (not the tool's) is theirs to compare
	a.Analysis.Run.ToolEnv, b.Analysis.Run.ToolEnv = nil, nil
	if res := compare.Compare(a, b); !slices.ContainsFunc(res.Settings, func(c compare.Change) bool { return c.Key == "env.TORCH_TRACE" }) {
		t.Errorf("the user's TORCH_TRACE dirs were left out: %+v", res.Settings)
	}
}

// Runs of two torch versions: a config setting only one version has is no setting the user changed (compare of a
// 2.6 and a 2.14.1 run led with "settings differ: compiler.force_disable_caches: (unset) → false").
func TestCompareLeavesOutConfigOnlyOneVersionHas(t *testing.T) {
	a, b := Side(t, Fixture("2.14", "c01_mlp.cold.trace")), Side(t, Fixture("2.14", "c01_mlp.warm.trace"))
	a.Probes = []report.ProcessInfo{{Rank: 0, Torch: "2.6.0", Config: map[string]any{"dynamo.cache_size_limit": 8.0}}}
	b.Probes = []report.ProcessInfo{{Rank: 0, Torch: "2.14.1", Config: map[string]any{"compiler.force_disable_caches": false, "dynamo.recompile_limit": 8.0},
		Env: map[string]string{"TORCHINDUCTOR_COMPILE_THREADS": "1"}}}
	res := compare.Compare(a, b)
	var keys []string
	for _, c := range res.Settings {
		keys = append(keys, c.Key)
	}
	if slices.Contains(keys, "compiler.force_disable_caches") || slices.Contains(keys, "dynamo.recompile_limit") ||
		slices.Contains(keys, "dynamo.cache_size_limit") || !slices.Contains(keys, "env.TORCHINDUCTOR_COMPILE_THREADS") {
		t.Errorf("settings that differ: %v", keys)
	}
	if len(res.Versions) == 0 {
		t.Errorf("versions: %+v", res.Versions)
	}
}
