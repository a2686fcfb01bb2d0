package doctor

import (
	"fmt"
	"strconv"
)

// The environment knobs that commonly cause compile-time or run-time regressions, from the table of
// ../shared/docs/compile-time-and-caches.md §5 (sources there: 2.14.1 and 2.6 torch trees). TORCHINDUCTOR_CACHE_DIR
// and TRITON_CACHE_DIR, in that table too, are the cache lines of doctor. Every effect below is the table's.
//
// How torch reads a value (read in the 2.14.1 and 2.6 trees): most of these are `os.environ.get(NAME) == "1"`, only
// "1" turns them on (2.14.1 _inductor/config.py:534-540, :795, :1576-1581, :1672, :2874). In 2.14.1 the cache
// switches are `Config(env_name_force=…)`, which read "1" as True, "0" as False and keep any other string, truthy
// unless empty (utils/_config_module.py:166-172; compiler/config.py:97-108, _inductor/config.py:110-114,
// _functorch/config.py:71-79); 2.6 reads those with `== "1"` too (_inductor/config.py:46, :91,
// _functorch/config.py:36). Versions between 2.6 and 2.14.1 were not read: they are taken as 2.14.1.

// knob is one variable of the table: check says what a value does under torch minor version minor (-1 unknown).
type knob struct {
	name  string
	check func(v string, minor int) (st status, detail, fix string)
}

// isOne is `== "1"`; configOn is a cache switch's reading: a Config bool in 2.14.1, `== "1"` in 2.6 and before.
func isOne(v string) bool { return v == "1" }
func configOn(v string, minor int) bool {
	if minor >= 0 && minor <= 6 {
		return isOne(v)
	}
	return v != "" && v != "0"
}

func one(v string, _ int) bool { return isOne(v) }

const unsetFix = "unset it unless you mean it: `unset %s`"

// onOff is a switch that is off by default and does harm when on.
func onOff(name string, on func(v string, minor int) bool, effect string) knob {
	return knob{name, func(v string, minor int) (status, string, string) {
		if !on(v, minor) {
			return statusOK, "off (the default)", ""
		}
		return statusWarn, effect, fmt.Sprintf(unsetFix, name)
	}}
}

// cacheSwitch is a compile cache that =0 turns off.
func cacheSwitch(name, what string, onByDefault func(minor int) bool) knob {
	return knob{name, func(v string, minor int) (status, string, string) {
		if !configOn(v, minor) {
			return statusWarn, what + " off: its compiles are never reused, every start is cold for it", fmt.Sprintf(unsetFix, name)
		}
		if !onByDefault(minor) {
			return statusOK, what + " on (off by default in this torch)", ""
		}
		return statusOK, what + " on (the default)", ""
	}}
}

// padding is a switch that is on by default ("1"); anything else turns it off.
func padding(name string) knob {
	return knob{name, func(v string, _ int) (status, string, string) {
		if isOne(v) {
			return statusOK, "on (the default)", ""
		}
		return statusWarn, "padding off: a different padding decision than a default run, so different kernels and timings " +
			"(on, it benchmarks at compile time and should_pad_mm synchronises the GPU)", fmt.Sprintf(unsetFix, name)
	}}
}

var knobs = []knob{
	onOff("TORCHINDUCTOR_FORCE_DISABLE_CACHES", configOn,
		"every compile cache is off (FX, AOTAutograd, PGO, autotune): every start compiles cold"),
	{"TORCH_COMPILE_FORCE_DISABLE_CACHES", func(v string, minor int) (status, string, string) {
		if minor >= 0 && minor <= 6 {
			return statusOK, "ignored by torch 2.6, which reads only TORCHINDUCTOR_FORCE_DISABLE_CACHES",
				"unset it: newer torch turns every cache off with it"
		}
		if !configOn(v, minor) {
			return statusOK, "off (the default)", ""
		}
		return statusWarn, "every compile cache is off (FX, AOTAutograd, PGO, autotune): every start compiles cold",
			fmt.Sprintf(unsetFix, "TORCH_COMPILE_FORCE_DISABLE_CACHES")
	}},
	cacheSwitch("TORCHINDUCTOR_FX_GRAPH_CACHE", "FX graph cache (and with it the AOTAutograd cache)", func(int) bool { return true }),
	cacheSwitch("TORCHINDUCTOR_AUTOGRAD_CACHE", "AOTAutograd cache", func(minor int) bool { return minor < 0 || minor > 6 }),
	{"TORCH_COMPILE_CACHE_KEY_TAG", func(v string, _ int) (status, string, string) {
		if v == "" {
			return statusOK, "empty (the default)", ""
		}
		return statusWarn, "mixed into every cache key and the PGO key: caches filled under another tag all miss",
			"keep the same tag for runs that should share caches, or unset it"
	}},
	{"TORCH_COMPILE_JOB_ID", func(v string, _ int) (status, string, string) {
		return statusOK, "automatic-dynamic (PGO) state is kept per job id and rank: a new id starts static and " +
			"recompiles dynamic, as without one", ""
	}},
	onOff("TORCHINDUCTOR_MAX_AUTOTUNE", one, "max-autotune: much longer compiles (benchmarking); results cached in *.best_config"),
	onOff("TORCHINDUCTOR_MAX_AUTOTUNE_GEMM", one, "max-autotune of matmuls: much longer compiles (benchmarking)"),
	onOff("TORCHINDUCTOR_MAX_AUTOTUNE_POINTWISE", one, "max-autotune of pointwise kernels: much longer compiles (benchmarking)"),
	onOff("TORCHINDUCTOR_COORDINATE_DESCENT_TUNING", one,
		"coordinate-descent tuning: longer compiles, reported to re-run on a warm cache (pytorch/pytorch#172819)"),
	{"TORCHINDUCTOR_GRAPH_PARTITION", func(v string, minor int) (status, string, string) {
		if minor >= 0 && minor <= 6 {
			return statusOK, "no such option in torch 2.6", ""
		}
		if isOne(v) {
			return statusOK, "on (the default outside fbcode since 2.9)", ""
		}
		return statusWarn, "graph partition off: CUDA graphs skip whole graphs instead of partitioning them " +
			"(run-time differences, pytorch/pytorch#163670)", fmt.Sprintf(unsetFix, "TORCHINDUCTOR_GRAPH_PARTITION")
	}},
	padding("TORCHINDUCTOR_SHAPE_PADDING"),
	padding("TORCHINDUCTOR_COMPREHENSIVE_PADDING"),
	onOff("TORCHINDUCTOR_FREEZING", one,
		"freezing: the AOTAutograd cache is bypassed on every start (`Cannot cache a graph with freezing enabled`)"),
	{"TORCHINDUCTOR_COMPILE_THREADS", func(v string, _ int) (status, string, string) {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			return statusWarn, "not a number: torch's int() of it fails", fmt.Sprintf(unsetFix, "TORCHINDUCTOR_COMPILE_THREADS")
		case n == 1:
			return statusWarn, "1 serialises Triton compiles: slow cold starts", "unset it (default min(32, CPUs))"
		}
		return statusOK, fmt.Sprintf("%d compile workers per process (default min(32, CPUs)); many ranks × workers can "+
			"oversubscribe the CPUs", n), ""
	}},
	{"TORCH_COMPILE_DISABLE", func(v string, minor int) (status, string, string) {
		switch {
		case isOne(v):
			return statusFail, "Dynamo is off: nothing compiles, the repro runs eager", "`unset TORCH_COMPILE_DISABLE`"
		case v == "":
			return statusOK, "empty: compiling is on", ""
		case minor >= 0 && minor <= 6:
			return statusFail, "torch 2.6 disables Dynamo for any non-empty value, even 0: nothing compiles",
				"`unset TORCH_COMPILE_DISABLE`"
		}
		return statusWarn, "2.14.1 disables Dynamo only for 1, but 2.6 does for any non-empty value, even 0",
			"`unset TORCH_COMPILE_DISABLE`"
	}},
	{"TORCHDYNAMO_DISABLE", func(v string, _ int) (status, string, string) {
		if isOne(v) {
			return statusWarn, "torch.compile does nothing in every process that inherits it (not torchtriage's runs: " +
				"run sets it only for its eager preset)", "`unset TORCHDYNAMO_DISABLE`"
		}
		return statusOK, "not 1: compiling is on", ""
	}},
	{"TORCHINDUCTOR_AUTOGRAD_CACHE_ALLOW_CUSTOM_AUTOGRAD", func(v string, minor int) (status, string, string) {
		if configOn(v, minor) {
			return statusOK, "graphs with a custom autograd.Function use the AOTAutograd cache too", ""
		}
		return statusOK, "off (the default): graphs with a custom autograd.Function bypass the AOTAutograd cache", ""
	}},
	onOff("TORCH_COMPILE_DEBUG", one, "debug dumps under torch_compile_debug/: slower compiles (2.14.1 also writes a TORCH_TRACE)"),
	{"TORCH_COMPILE_ON_ONE_RANK", func(v string, _ int) (status, string, string) {
		return statusOK, "rank-specific values are computed at run time so ranks share one compiled graph", ""
	}},
}
