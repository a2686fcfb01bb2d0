package findings

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// The env and config knobs that commonly cause compile-time or run-time regressions
// (compile-time-and-caches.md §5), read per rank by the probe, flagged when set to a risky value.

// knob is one setting: Key is "env.NAME" or a probe config key ("inductor.max_autotune"); Risky says whether
// a value is risky (torch is the process's torch version).
type knob struct {
	Key   string
	Group string // one finding per group (an env variable and the config it sets)
	Kind  Kind   // KindCacheMiss or KindCompileTime
	Why   string
	Risky func(value, torch string) bool
}

func is(vals ...string) func(string, string) bool {
	return func(v, _ string) bool {
		for _, w := range vals {
			if strings.EqualFold(strings.Trim(v, `"`), w) {
				return true
			}
		}
		return false
	}
}

var knobs = []knob{
	{"env.TORCHINDUCTOR_FORCE_DISABLE_CACHES", "force_disable_caches", KindCacheMiss, "every compile cache is off (FX graph, AOTAutograd, PGO, autotune): every start compiles cold", is("1", "true")},
	{"env.TORCH_COMPILE_FORCE_DISABLE_CACHES", "force_disable_caches", KindCacheMiss, "every compile cache is off (FX graph, AOTAutograd, PGO, autotune): every start compiles cold", is("1", "true")},
	{"compiler.force_disable_caches", "force_disable_caches", KindCacheMiss, "every compile cache is off (FX graph, AOTAutograd, PGO, autotune): every start compiles cold", is("true")},
	{"inductor.force_disable_caches", "force_disable_caches", KindCacheMiss, "every compile cache is off (FX graph, AOTAutograd, PGO, autotune): every start compiles cold", is("true")},
	{"env.TORCHINDUCTOR_FX_GRAPH_CACHE", "fx_graph_cache", KindCacheMiss, "the FX graph cache is off (and with it the AOTAutograd cache)", is("0", "false")},
	{"inductor.fx_graph_cache", "fx_graph_cache", KindCacheMiss, "the FX graph cache is off (and with it the AOTAutograd cache)", is("false")},
	{"env.TORCHINDUCTOR_AUTOGRAD_CACHE", "autograd_cache", KindCacheMiss, "the AOTAutograd cache is off", is("0", "false")},
	{"env.TORCHINDUCTOR_FREEZING", "freezing", KindCacheMiss, "freezing: the AOTAutograd cache bypasses every start (Cannot cache a graph with freezing enabled)", is("1", "true")},
	{"inductor.freezing", "freezing", KindCacheMiss, "freezing: the AOTAutograd cache bypasses every start (Cannot cache a graph with freezing enabled)", is("true")},
	{"env.TORCHINDUCTOR_MAX_AUTOTUNE", "max_autotune", KindCompileTime, "max-autotune benchmarks kernels at compile time: much longer compiles", is("1", "true")},
	{"inductor.max_autotune", "max_autotune", KindCompileTime, "max-autotune benchmarks kernels at compile time: much longer compiles", is("true")},
	{"env.TORCHINDUCTOR_MAX_AUTOTUNE_GEMM", "max_autotune", KindCompileTime, "max-autotune benchmarks kernels at compile time: much longer compiles", is("1", "true")},
	{"env.TORCHINDUCTOR_MAX_AUTOTUNE_POINTWISE", "max_autotune", KindCompileTime, "max-autotune benchmarks kernels at compile time: much longer compiles", is("1", "true")},
	{"env.TORCHINDUCTOR_COORDINATE_DESCENT_TUNING", "coordinate_descent", KindCompileTime, "coordinate-descent tuning benchmarks at compile time (reported to re-run on a warm cache)", is("1", "true")},
	{"inductor.coordinate_descent_tuning", "coordinate_descent", KindCompileTime, "coordinate-descent tuning benchmarks at compile time (reported to re-run on a warm cache)", is("true")},
	{"env.TORCHINDUCTOR_COMPILE_THREADS", "compile_threads", KindCompileTime, "one compile thread: kernels compile one after the other (slow cold start)", is("1")},
	{"inductor.compile_threads", "compile_threads", KindCompileTime, "one compile thread: kernels compile one after the other (slow cold start)", is("1")},
	{"env.TORCH_COMPILE_DEBUG", "compile_debug", KindCompileTime, "TORCH_COMPILE_DEBUG writes debug dumps during every compile (slower compiles)", is("1")},
	{"env.TORCH_COMPILE_DISABLE", "compile_disable", KindCompileTime, "Dynamo is disabled: nothing compiles (in 2.6 any non-empty value disables, even 0)",
		func(v, torch string) bool { return v == "1" || (v != "" && strings.HasPrefix(torch, "2.6")) }},
}

// cacheKnobs are settings that decide which cache entries a process finds: its dirs and key parts.
var cacheKnobs = map[string]bool{"TORCHINDUCTOR_CACHE_DIR": true, "TRITON_CACHE_DIR": true, "TORCH_COMPILE_CACHE_KEY_TAG": true,
	"TORCH_COMPILE_JOB_ID": true, "TORCH_COMPILE_STICKY_PGO_KEY": true, "TORCHINDUCTOR_FORCE_DISABLE_CACHES": true,
	"TORCH_COMPILE_FORCE_DISABLE_CACHES": true, "TORCHINDUCTOR_FX_GRAPH_CACHE": true, "TORCHINDUCTOR_AUTOGRAD_CACHE": true,
	"TORCHINDUCTOR_FREEZING": true, "compiler.cache_key_tag": true, "compiler.job_id": true, "compiler.force_disable_caches": true,
	"inductor.force_disable_caches": true, "inductor.fx_graph_cache": true, "inductor.freezing": true}

// isCacheKnob reports a setting (env name or config key) that changes what the compile caches find.
func IsCacheKnob(key string) bool { return cacheKnobs[strings.TrimPrefix(key, "env.")] }

// IsKnob reports a setting of the knob table or a cache knob ("env.NAME" or a config key).
func IsKnob(key string) bool {
	if IsCacheKnob(key) {
		return true
	}
	for _, k := range knobs {
		if k.Key == key {
			return true
		}
	}
	return false
}

// knobFindings flags risky knob values, one finding per group, naming the settings and ranks.
//
// A knob the tool itself set for the run (toolEnv: the preset's environment, e.g. the cudagraphs preset's
// TORCHINDUCTOR_FORCE_DISABLE_CACHES=1) is not the user's to fix: its whole group is left out.
func knobFindings(probes []report.ProcessInfo, set *playbooks.Set, toolEnv map[string]string) []Finding {
	type hit struct {
		k        knob
		settings map[string]bool
		ranks    []int
	}
	groups := map[string]*hit{}
	for _, p := range probes {
		vals := report.Settings(p)
		for _, k := range knobs {
			v, ok := vals[k.Key]
			if !ok || !k.Risky(v, p.Torch) {
				continue
			}
			h := groups[k.Group]
			if h == nil {
				h = &hit{k: k, settings: map[string]bool{}}
				groups[k.Group] = h
			}
			h.settings[strings.TrimPrefix(k.Key, "env.")+"="+strings.Trim(v, `"`)] = true
			h.ranks = report.AppendRank(h.ranks, p.RankOf())
		}
	}
	for _, k := range knobs {
		if name, ok := strings.CutPrefix(k.Key, "env."); ok && toolEnv[name] != "" {
			delete(groups, k.Group)
		}
	}
	var out []Finding
	for _, g := range report.SortedStrings(groups) {
		h := groups[g]
		set0 := strings.Join(report.SortedStrings(h.settings), ", ")
		title := fmt.Sprintf("%s: %s", set0, h.k.Why)
		on := "the process" // without rank (RankOf)
		if ranks := NonNeg(h.ranks); len(ranks) > 0 {
			on = report.RankWord(ranks)
		}
		detail := fmt.Sprintf("%s\nSet on %s.", title, on)
		out = append(out, compileFinding(h.k.Kind, "knob:"+g, title, detail, "knob "+set0+": "+h.k.Why, NonNeg(h.ranks), set))
	}
	return out
}
