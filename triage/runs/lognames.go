package runs

import (
	"regexp"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// Valid TORCH_LOGS names per torch minor version.
//
// 2.6 and 2.14 are PyTorch's own "Valid settings:" lists, copied verbatim from
// real runs (testdata/torch-2.6.unknown-torch-logs-name.log and
// testdata/torch-2.14.unknown-torch-logs-name.log; a test checks they match).
// The other versions are inferred from snapshots of
// torch/_logging/_registrations.py and the format notes: TORCH_LOGS appeared
// in 2.1 (2.0 ignores it), so 2.0 knows no name. Where unsure the table says
// "known": a wrong "known" costs one failed launch that the supervisor repairs
// by dropping the name and relaunching, a wrong "unknown" would silently lose
// logs the user asked for.
const (
	validSettings26  = "all, cache, dynamo, fake_tensor, aot, autograd, inductor, dynamic, torch, distributed, c10d, ddp, pp, fsdp, dtensor, onnx, export, trace_bytecode, compiled_autograd_verbose, ddp_graphs, output_code, not_implemented, schedule, post_grad_graphs, aot_graphs, guards, graph_breaks, onnx_diagnostics, verbose_guards, loop_ordering, trace_call, graph, custom_format_test_artifact, cudagraph_static_inputs, trace_source, recompiles, fusion, trace_shape_events, compiled_autograd, aot_graphs_effects, graph_region_expansion, bytecode, cudagraphs, graph_code, aot_joint_graph, recompiles_verbose, graph_sizes, sym_node, kernel_code, overlap, benchmarking, perf_hints"
	validSettings214 = "all, annotation, aot, aot_graphs, aot_graphs_effects, aot_joint_graph, async_compile, auto_chunker, autograd, autotuning, autotuning_inputs, benchmarking, bytecode, c10d, cache, caching, compiled_autograd, compiled_autograd_verbose, compute_dependencies, cudagraph_static_inputs, cudagraphs, custom_format_test_artifact, ddp, ddp_graphs, distributed, dtensor, dynamic, dynamo, export, fake_tensor, flex_gemm, fsdp, fusion, graph, graph_breaks, graph_code, graph_code_verbose, graph_region_expansion, graph_sizes, guards, hierarchical_compile, incremental, inductor, inductor_metrics, ir_post_fusion, ir_pre_fusion, kernel_code, loop_ordering, loop_tiling, native_dsl, native_dsl_compile, node_runtime_estimation, not_implemented, onnx, onnx_diagnostics, output_code, overlap, overlap_scheduling, partitioned_scatter, perf_hints, post_grad_graphs, pp, pre_grad_graphs, recompiles, recompiles_verbose, schedule, side_effects, sym_node, torch, trace_bytecode, trace_call, trace_shape_events, trace_source, verbose_guards"

	// 2.1 (Oct 2023): the first release with TORCH_LOGS.
	names21 = "all, dynamo, aot, inductor, dynamic, torch, distributed, onnx, guards, verbose_guards, bytecode, graph, graph_code, graph_sizes, trace_source, trace_call, aot_graphs, aot_joint_graph, post_grad_graphs, ddp_graphs, recompiles, graph_breaks, not_implemented, output_code, schedule, perf_hints, onnx_diagnostics, fusion, overlap, custom_format_test_artifact"
	// 2.2 adds recompiles_verbose, autograd, export, compiled_autograd and the dist_* logs.
	added22 = "recompiles_verbose, autograd, export, compiled_autograd, dist_c10d, dist_ddp, dist_fsdp"
	// 2.3 renames the dist_* logs (kept here too: unsure) and adds cudagraphs, pp, kernel_code, sym_node, trace_bytecode.
	added23 = "c10d, ddp, fsdp, pp, cudagraphs, kernel_code, sym_node, trace_bytecode"
	// 2.4 adds compiled_autograd_verbose and ts2ep_conversion.
	added24 = "compiled_autograd_verbose, ts2ep_conversion"
)

var (
	logNamesByMinor map[int][]string
	moduleNameRE    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$`)
)

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, n := range l {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

func without(list []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(n string) bool { return slices.Contains(drop, n) })
}

func init() {
	v26, v214 := splitList(validSettings26), splitList(validSettings214)
	v21 := splitList(names21)
	v22 := union(v21, splitList(added22))
	v23 := union(v22, splitList(added23))
	v24 := union(v23, splitList(added24))
	v25 := union(without(v24, "dist_c10d", "dist_ddp", "dist_fsdp"), without(v26, "graph_region_expansion"))
	between := union(v26, v214)
	logNamesByMinor = map[int][]string{0: {}, 1: v21, 2: v22, 3: v23, 4: v24, 5: v25, 6: v26, 14: v214}
	for m := 7; m <= 13; m++ {
		logNamesByMinor[m] = between
	}
}

// TorchMinor reads "2.14", "2.14.1", "2.6.0+cu124", "v2.6" (logparse.ParseTorchVersion, the one reader of a
// torch version) and returns the minor version of a torch 2.x release; ok is false for anything else.
func TorchMinor(version string) (int, bool) {
	r, ok := logparse.ParseTorchVersion(version)
	if !ok || r.Major != 2 {
		return 0, false
	}
	return r.Minor, true
}

// LogNamesFor returns the TORCH_LOGS names the given torch version accepts
// (without +/- prefixes or module names); ok is false when the version is
// not in the table, and then no name is dropped.
func LogNamesFor(torchVersion string) (names []string, ok bool) {
	minor, ok := TorchMinor(torchVersion)
	if !ok {
		return nil, false
	}
	names, ok = logNamesByMinor[minor]
	return slices.Clone(names), ok
}

// baseLogName strips the +/- level prefix and surrounding space.
func baseLogName(name string) string {
	name = strings.TrimSpace(name)
	return strings.TrimLeft(name, "+-")
}

// KnownLogName reports whether torchVersion accepts name in TORCH_LOGS.
// "+name"/"-name" are valid where name is; dotted module names
// ("torch._dynamo") are accepted by every version that has TORCH_LOGS; an
// unknown version knows every name.
func KnownLogName(name, torchVersion string) bool {
	base := baseLogName(name)
	if base == "" || strings.ContainsAny(base, " ,=") {
		return false
	}
	valid, ok := LogNamesFor(torchVersion)
	if !ok {
		return true
	}
	if moduleNameRE.MatchString(base) {
		return len(valid) > 0
	}
	return slices.Contains(valid, base)
}

// ComposeTorchLogs builds the TORCH_LOGS value for names: trimmed, without
// duplicates, without names torchVersion does not know (returned in dropped),
// and with "recompiles" added when any log is on and neither recompiles nor
// recompiles_verbose is (+dynamo alone prints no recompile records).
func ComposeTorchLogs(names []string, torchVersion string) (value string, dropped []string) {
	return composeTorchLogs(names, torchVersion, nil)
}

// composeTorchLogs is ComposeTorchLogs that also drops the names in exclude
// (compared without +/-), used when a run proved torch rejects them.
func composeTorchLogs(names []string, torchVersion string, exclude []string) (string, []string) {
	var kept, dropped []string
	seen := map[string]bool{}
	for _, raw := range names {
		n := strings.TrimSpace(raw)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		if slices.Contains(exclude, baseLogName(n)) || !KnownLogName(n, torchVersion) {
			dropped = append(dropped, n)
			continue
		}
		kept = append(kept, n)
	}
	if len(kept) > 0 && !slices.ContainsFunc(kept, func(n string) bool {
		b := baseLogName(n)
		return b == "recompiles" || b == "recompiles_verbose"
	}) && !slices.Contains(exclude, "recompiles") && KnownLogName("recompiles", torchVersion) {
		kept = append(kept, "recompiles")
	}
	return strings.Join(kept, ","), dropped
}
