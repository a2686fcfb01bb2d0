package compare_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// Why a cache changed state follows the direction of the change (exploratory runs on real 2.14.1: a warm start
// under a new TORCH_COMPILE_JOB_ID read "miss → hit (key changed: TORCH_COMPILE_JOB_ID …)", a changed key only ever
// misses; a cold start beside a changed inductor setting read "entries not found: a fresh or cleared cache dir" with
// the same cache dir; 2.14.1 → 2.6 read "hit → none (key changed: torch version …)", where 2.6 made no lookup).
func TestCacheCauseFollowsTheDirection(t *testing.T) {
	jobID := compare.Change{Key: "env.TORCH_COMPILE_JOB_ID", A: "(unset)", B: "x", Knob: true, Cache: true}
	nan := compare.Change{Key: "env.TORCHINDUCTOR_NAN_ASSERTS", A: "(unset)", B: "1"}
	torch := compare.Change{Key: "version.torch", A: "2.14.1+debian", B: "2.6.0+debian", Cache: true}
	for _, c := range []struct {
		name      string
		settings  []compare.Change
		versions  []compare.Change
		cache     string
		from, to  compare.CacheState
		want, bad string
	}{
		{"warm under a new job id", []compare.Change{jobID}, nil, "fx_graph", compare.CacheMiss, compare.CacheHit, "warm start", "key changed"},
		{"job id keys PGO only", []compare.Change{jobID}, nil, "fx_graph", compare.CacheHit, compare.CacheMiss, "no recorded setting differs", "JOB_ID"},
		{"job id keys PGO", []compare.Change{jobID}, nil, "pgo", compare.CacheHit, compare.CacheMiss, "key changed: TORCH_COMPILE_JOB_ID", ""},
		{"an inductor setting is in the key", []compare.Change{nan}, nil, "fx_graph", compare.CacheHit, compare.CacheMiss, "key changed: TORCHINDUCTOR_NAN_ASSERTS: (unset) → 1", "fresh"},
		{"no lookup on another torch", nil, []compare.Change{torch}, "aot_autograd", compare.CacheHit, compare.CacheNone, "no lookup in B", "key changed"},
		{"a new torch misses", nil, []compare.Change{torch}, "fx_graph", compare.CacheHit, compare.CacheMiss, "key changed: torch version", ""},
	} {
		res := &compare.Result{Settings: c.settings, Versions: c.versions}
		got := res.CacheCause(compare.CacheChange{Cache: c.cache, From: c.from, To: c.to})
		if !strings.Contains(got, c.want) || c.bad != "" && strings.Contains(got, c.bad) {
			t.Errorf("%s: %q", c.name, got)
		}
	}
}

// The skew finding blames the cache only where the slow rank missed it (exploratory run on real 2.14.1: a rank
// slow in Dynamo on a warm cache, 1 hit 0 miss, beside a rank with 2 hits, read "it missed the cache the faster rank
// hit" and got the cache-dir playbook).
func TestSkewBlamesTheCacheOnlyOnAMiss(t *testing.T) {
	secs := func(v float64) *float64 { return &v }
	warm := func(hits int) report.Caches {
		known := report.KnowHit | report.KnowMiss
		return report.Caches{"fx_graph": {Hit: hits, Known: known}, "aot_autograd": {Hit: hits, Known: known}}
	}
	c := &report.CompileReport{PerRank: map[string]report.RankCompile{
		"0": {TotalS: secs(1.1), Caches: warm(2)},
		"1": {TotalS: secs(6.6), Caches: warm(1)},
	}}
	f, ok := findings.SkewFinding(c, nil)
	if !ok || strings.Contains(f.Title, "missed the cache") || f.Playbook == "cache-dir-not-shared" {
		t.Errorf("warm slow rank: %q [%s]", f.Title, f.Playbook)
	}
	c.Ranks()[1].Caches = report.Caches{"fx_graph": {Miss: 1, Known: report.KnowHit | report.KnowMiss}}
	if f, ok := findings.SkewFinding(c, nil); !ok || !strings.Contains(f.Title, "missed the cache") {
		t.Errorf("cold slow rank: %q", f.Title)
	}
}

// The headline does not pin a phase's total change on one frame (exploratory runs on real 2.14.1: "kernels -4.5 s on
// `inner` [0/0]" where 0/0's kernels fell 2.3 s and 0/1's the rest); the biggest frame is named with its own change
// and rank, and none where B has no per-frame time.
func TestCompareHeadlineKeepsPhaseAndFrameApart(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	rank1 := 1
	res := &compare.Result{
		Compile: &compare.Delta{What: "compile", A: f(8.2), B: f(2.0), DeltaS: f(-6.2), Big: true},
		Phases:  []compare.Delta{{What: "kernels", A: f(4.5), B: f(0), DeltaS: f(-4.5), Big: true}},
		Frames:  []compare.Delta{{What: "`inner` [0/0]", A: f(4.0), B: f(1.0), DeltaS: f(-3.0), Big: true, Rank: &rank1}},
		Ranks:   []compare.Delta{{What: "rank 0"}, {What: "rank 1"}},
	}
	v, _ := res.DecideVerdict()
	if strings.Contains(v, "-4.5 s on") || !strings.Contains(v, "kernels -4.5 s") || !strings.Contains(v, "`inner` [0/0] on rank 1 -3.0 s") {
		t.Errorf("verdict %q", v)
	}
	res.Frames[0].B, res.Frames[0].DeltaS = nil, nil // B has no per-frame time
	if v, _ := res.DecideVerdict(); strings.Contains(v, "inner") {
		t.Errorf("verdict without B's frames %q", v)
	}
}

// A rank that compiled nothing recorded only the config of the modules it imported: the others' inductor and
// dynamo settings are not "(unset)" there, and no difference is claimed (exploratory 2-rank run on real 2.14.1:
// 33 HIGH "Ranks run with different settings", inductor.fx_graph_cache: true on rank 0; (unset) on rank 1).
func TestConfigParityOfARankThatImportedLess(t *testing.T) {
	infos := []report.ProcessInfo{
		{Rank: 0, Config: map[string]any{"compiler.job_id": nil, "inductor.fx_graph_cache": true, "dynamo.recompile_limit": 8.0}},
		{Rank: 1, Config: map[string]any{"compiler.job_id": nil}},
	}
	if d := report.ConfigParity(infos); len(d) != 0 {
		t.Errorf("differences %+v", d)
	}
	infos[1].Config["dynamo.recompile_limit"] = 3.0
	if d := report.ConfigParity(infos); len(d) != 1 || d[0].Key != "dynamo.recompile_limit" {
		t.Errorf("a recorded difference: %+v", d)
	}
}

// A rank that began no frame compiled for 0 s: --max-compile-skew compares it with the rank that compiled (an
// exploratory 2-rank run on real 2.14.1 where only rank 0 compiles, 3 s: "no evidence: fewer than two ranks with
// compile time").
func TestRankThatCompiledNothingCompiledForNoTime(t *testing.T) {
	probes := []report.ProcessInfo{
		{Rank: 0, CompileTimes: map[string]float64{report.CtFrame: 3.0}, Counters: map[string]map[string]float64{"frames": {"total": 1, "ok": 1}}},
		{Rank: 1},
	}
	c := report.WithProbeCompile(nil, probes)
	slow, fast, ok := c.SlowFast()
	if !ok || slow != 0 || fast != 1 || *c.Ranks()[1].TotalS != 0 {
		t.Errorf("slow %d fast %d ok %v", slow, fast, ok)
	}
	res := gate.Check(&triage.Analysis{Report: &report.Report{Compile: c}}, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, MaxCompileSkew: time.Second})
	if res.Passed || len(res.Failures) != 1 {
		t.Errorf("gate %+v", res)
	}
}

// A baseline written on a warm cache against a cold run: the frames' compile times grew because the run missed
// the cache the baseline's run hit, which the failure says (exploratory runs on real 2.14.1: "grew 1.2 s → 4.6 s:
// dynamo +0.9 s, inductor +1.4 s, kernels +1.7 s", nothing about the cache). The baseline keeps each frame's cache
// state for it.
func TestBaselineCompileNamesACacheDifference(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	ref := report.FrameRef{Function: "inner", CompileID: "0/0"}
	warm := &report.CompileReport{Frames: []*report.FrameTime{{FrameRef: ref, TotalS: 1.2, Cache: "warm", ByPhase: report.Phases{Dynamo: f(0.3)}}}}
	cold := &report.CompileReport{Frames: []*report.FrameTime{{FrameRef: ref, TotalS: 4.6, Cache: "cold", ByPhase: report.Phases{Dynamo: f(1.2)}}}}
	base := gate.BaselineFrames(warm)
	if len(base) != 1 || base[0].Cache != "warm" {
		t.Fatalf("baseline frames %+v", base)
	}
	var res gate.Result
	res.BaselineCompile(cold, gate.Options{Baseline: &gate.Baseline{Compile: base}})
	if len(res.Failures) != 1 || !strings.Contains(res.Failures[0].Message, "the baseline's run hit the cache (warm), this one missed it (cold)") {
		t.Errorf("failures %+v", res.Failures)
	}
}

// A cold and a warm start split their phases differently: on a cache hit Inductor reports no time and the
// backend's (loading the compiled graph) counts under aot (an exploratory 2-rank cold → warm pair on real 2.14.1
// read "aot 1.60s → 5.17s ×3.24"). The comparison says so, and its headline does not lead with such a phase.
func TestColdAndWarmPhasesAreNotComparedOneToOne(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	res := &compare.Result{
		Compile: &compare.Delta{What: "compile", A: f(6.0), B: f(7.0), DeltaS: f(1.0), Big: true},
		Phases:  []compare.Delta{{What: "aot", A: f(1.6), B: f(5.2), DeltaS: f(3.6), Big: true}},
		Caches:  []compare.CacheChange{{Cache: "aot_autograd", From: compare.CacheMiss, To: compare.CacheHit}},
	}
	res.NotePhases()
	if !strings.Contains(res.PhaseNote, "cold and a warm start") {
		t.Errorf("note %q", res.PhaseNote)
	}
	if v, _ := res.DecideVerdict(); strings.Contains(v, "aot +3.6") {
		t.Errorf("verdict %q", v)
	}
}

// PGO's "get_code_state using default" without a hit before it is a lookup that missed (a cold profile; 2.11+
// print it after a hit too: compile-time-and-caches.md §3.3). A cold run with a job id read "PGO 0 hit 0 miss" and
// compare "hit → none (no lookup)" (exploratory run on real 2.14.1).
func TestPGODefaultWithoutAHitIsAMiss(t *testing.T) {
	const cold = `I1127 02:10:00.000000 1 torch/_dynamo/pgo.py:967] [0/0] get_code_state using default
I1127 02:10:01.000000 1 torch/_dynamo/pgo.py:1040] [0/0] put_code_state: wrote local /c/dynamo/code_state_x_None_.pkl, 1 entries
`
	const warm = `I1127 02:11:00.000000 2 torch/_dynamo/pgo.py:803] [0/0] get_code_state /c/dynamo/code_state_x_None_.pkl hit local, 1 entries
I1127 02:11:00.000000 2 torch/_dynamo/pgo.py:967] [0/0] get_code_state using default
`
	// 2.6 has local PGO off: its "using default" could find nothing, and says so after (testdata/compile/torch-2.6)
	const off26 = `I1123 04:35:59.253000 21431 torch/_dynamo/pgo.py:619] [0/0] get_code_state using default
I1123 04:36:01.790000 21431 torch/_dynamo/pgo.py:652] [0/0] put_code_state: local cache disabled
`
	for _, c := range []struct {
		text      string
		hit, miss int
	}{{cold, 0, 1}, {warm, 1, 0}, {off26, 0, 0}} {
		path := filepath.Join(t.TempDir(), "pgo.log")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		rep := triagetest.LoadReport(t, path)
		var got report.CacheStats
		if rep.Compile != nil {
			got = rep.Compile.Caches["pgo"]
		}
		if got.Hit != c.hit || got.Miss != c.miss {
			t.Errorf("pgo %+v, want %d hit %d miss\n%s", got, c.hit, c.miss, c.text)
		}
	}
}

// A trace shows PGO hits and writes, not misses: a cold lookup there is not known, not "none" (exploratory runs:
// "PGO code state none → hit" between a cold and a warm traced run).
func TestPGOStateOfATraceWithoutHits(t *testing.T) {
	cold := report.CacheStats{Writes: 2, Known: report.KnowHit | report.KnowWrites}
	if s := compare.StateOfCache(cold, true); s == compare.CacheNone {
		t.Errorf("state %q", s)
	}
}

// A graph whose AOTAutograd lookup bypassed (freezing) while its FX graph hit is partial, not bypass
// (compile-time-and-caches.md §3.6); bypass alone stays bypass.
func TestFrameCacheStateOfFreezing(t *testing.T) {
	if s := (&report.CacheMix{Hit: 1, Bypass: 1}).State(); s != report.CachePartial {
		t.Errorf("AOT bypass + FX hit: %q", s)
	}
	if s := (&report.CacheMix{Bypass: 2}).State(); s != report.CacheBypass {
		t.Errorf("bypass only: %q", s)
	}
}

// A bypass is the cache declining to look up or store (an unsupported op in the graph, freezing, a config: the
// bypass reason), not an entry it did not find. The cause of a change to or from "bypass" says which side bypassed
// and why, from the reasons its records carry, or that they carry none; never "entries not found" or "warm start".
// A cold 2.14 run against a trace whose AOTAutograd lookups bypassed on flex_attention read "AOTAutograd cache
// miss → bypass (entries not found; settings: …)", and the reverse "bypass → hit (warm start: the entries an earlier
// run wrote)".
func TestCacheCauseOfABypass(t *testing.T) {
	known := report.KnowHit | report.KnowMiss | report.KnowBypass
	freezing := "Cannot cache a graph with freezing enabled"
	switchOn := compare.Change{Key: "env.TORCHINDUCTOR_FREEZING", A: "(unset)", B: "1", Knob: true, Cache: true}
	for _, c := range []struct {
		name      string
		settings  []compare.Change
		a, b      report.CacheStats
		want, bad []string
	}{
		{"no reason recorded", nil, report.CacheStats{Miss: 2, Known: known}, report.CacheStats{Bypass: 2, Known: known},
			[]string{"B bypassed the cache; its records give no reason"}, []string{"not found", "key changed"}},
		{"an empty reason is no reason", nil, report.CacheStats{Miss: 2, Known: known}, report.CacheStats{Bypass: 2, Known: known, BypassReasons: map[string]int{"": 2}},
			[]string{"B bypassed the cache; its records give no reason"}, []string{"not found", "cache: ;"}},
		{"the most frequent reason first", nil, report.CacheStats{Hit: 3, Known: known},
			report.CacheStats{Bypass: 3, Known: known, BypassReasons: map[string]int{"No shape env": 1, freezing: 2}},
			[]string{"B bypassed the cache: " + freezing + " (+1 other reason)"}, []string{"not found"}},
		{"a switch that differs is named beside the reason", []compare.Change{switchOn}, report.CacheStats{Miss: 2, Known: known},
			report.CacheStats{Bypass: 2, Known: known, BypassReasons: map[string]int{freezing: 2}},
			[]string{"B bypassed the cache: " + freezing, "TORCHINDUCTOR_FREEZING: (unset) → 1"}, []string{"not found", "caches disabled"}},
		{"some lookups bypassed, none missed", nil, report.CacheStats{Hit: 6, Known: known},
			report.CacheStats{Hit: 5, Bypass: 1, Known: known, BypassReasons: map[string]int{"No shape env": 1}},
			[]string{"B bypassed 1 of 6 lookups: No shape env"}, []string{"not found"}},
		{"bypasses and misses", nil, report.CacheStats{Hit: 6, Known: known},
			report.CacheStats{Hit: 2, Miss: 2, Bypass: 2, Known: known, BypassReasons: map[string]int{"No shape env": 2}},
			[]string{"B bypassed 2 of 6 lookups: No shape env", "entries not found"}, nil},
		{"A bypassed, B missed", nil, report.CacheStats{Bypass: 2, Known: known}, report.CacheStats{Miss: 2, Known: known},
			[]string{"A bypassed the cache; its records give no reason; B looked it up and missed"}, []string{"not found", "key changed"}},
		{"A bypassed, B hit", nil, report.CacheStats{Bypass: 2, Known: known, BypassReasons: map[string]int{freezing: 2}}, report.CacheStats{Hit: 2, Known: known},
			[]string{"A bypassed the cache: " + freezing + "; B looked it up and hit"}, []string{"warm start"}},
	} {
		res := &compare.Result{Settings: c.settings}
		res.CompareCaches(&report.CompileReport{Caches: report.Caches{"aot_autograd": c.a}}, &report.CompileReport{Caches: report.Caches{"aot_autograd": c.b}})
		if len(res.Caches) != 1 || !res.Caches[0].Changed() {
			t.Fatalf("%s: no change %+v", c.name, res.Caches)
		}
		got := res.CacheCause(res.Caches[0])
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q, want %q", c.name, got, w)
			}
		}
		for _, b := range c.bad {
			if strings.Contains(got, b) {
				t.Errorf("%s: %q has %q", c.name, got, b)
			}
		}
		if v, _ := res.DecideVerdict(); len(c.settings) > 0 && strings.Contains(v, "settings differ") {
			t.Errorf("%s: the switch named twice: %q", c.name, v)
		}
	}

	// recorded: a cold 2.14 MLP (AOT misses) against tlparse's cache_hit_miss trace (AOT bypassed on flex_attention)
	cold, flex := Side(t, Fixture("2.14", "c01_mlp.cold.trace")), Side(t, filepath.Join(fixtures, "tlparse", "cache_hit_miss.log"))
	for _, pair := range []struct {
		a, b compare.Side
		want string
	}{
		{cold, flex, "AOTAutograd cache miss → bypass (B bypassed the cache: Unsupported call_function target flex_attention."},
		{flex, cold, "AOTAutograd cache bypass → miss (A bypassed the cache: Unsupported call_function target flex_attention."},
	} {
		v := compare.Compare(pair.a, pair.b).Verdict
		_, aot, _ := strings.Cut(v, "AOTAutograd cache")
		if aot, _, _ = strings.Cut(aot, ");"); !strings.Contains(v, pair.want) || strings.Contains(aot, "not found") {
			t.Errorf("verdict %q, want %q", v, pair.want)
		}
	}
}
