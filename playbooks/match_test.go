package playbooks

import (
	"sort"
	"strings"
	"testing"
)

// reachCase is one finding as the triage layer would describe it. Texts come
// from the real logs in /work/shared/fixtures (torch 2.6 and 2.14), the
// graph-break registry's explanation templates, or the format reference
// (/work/shared/docs/torch-log-formats.md); "triage:" marks reasons that the
// triage layer writes itself (stall, rank, parity and probe findings).
type reachCase struct {
	name  string
	q     Query
	want  string
	level string
}

const (
	gt0059 = "Failed to trace builtin operator"
	ex0059 = "Dynamo does not know how to trace builtin operator `print` with argument types ['str'] (has_kwargs False)\n" +
		"Hint: Avoid calling builtin `print` with argument types ['str']. Consider using an equivalent alternative function/method to `print`.\n" +
		"Hint: If you are attempting to call a logging function (e.g. `print`), you can try adding it to `torch._dynamo.config.reorderable_logging_functions`.\n" +
		"Developer debug context: builtin print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False"
	ddpSkip = "Dynamo developers have intentionally marked that the function `DistributedDataParallel._inside_ddp_forward` in file `/usr/lib/python3/dist-packages/torch/_compile.py` should not be traced.\n" +
		"Developer debug context: module: torch.nn.parallel.distributed, qualname: DistributedDataParallel._inside_ddp_forward, skip reason: file matches MOD_SKIPLIST (/usr/lib/python3/dist-packages/torch/_compile)"
)

var reachCases = []reachCase{
	// graph breaks, 2.14 (gb_type + GB id) and 2.6 (Reason: line)
	{"2.14 print", Query{Kind: "graph_break", GBID: "GB0059", GBType: gt0059, Reason: ex0059}, "gb-print", LevelGBID},
	{"2.6 print", Query{Kind: "graph_break", Reason: "Unsupported: builtin: print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False"}, "gb-print", LevelReason},
	{"2.14 builtin len", Query{Kind: "graph_break", GBID: "GB0059", GBType: gt0059, Reason: "Dynamo does not know how to trace builtin operator `len` with argument types ['Foo'] (has_kwargs False)\nHint: If you are attempting to call a logging function (e.g. `print`), you can try adding it to `torch._dynamo.config.reorderable_logging_functions`."}, "gb-skipped-function", LevelGBID},
	{"2.14 skipped C function", Query{Kind: "graph_break", GBID: "GB0007", GBType: "Attempted to call function marked as skipped", Reason: "Dynamo developers have intentionally marked that the function `fast_op` in file `/site-packages/ext/ops.py` should not be traced."}, "gb-skipped-function", LevelGBID},
	{"2.14 data-dependent branch", Query{Kind: "graph_break", GBID: "GB0170", GBType: "Data-dependent branching", Reason: "Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does not support tracing dynamic control flow."}, "gb-data-dependent-branch", LevelGBID},
	{"2.6 data-dependent jump", Query{Kind: "graph_break", Reason: "Data-dependent jump"}, "gb-data-dependent-branch", LevelReason},
	{"2.14 item", Query{Kind: "graph_break", GBID: "GB0124", GBType: "Unsupported Tensor.item() call with capture_scalar_outputs=False", Reason: "Dynamo does not support tracing `Tensor.item()` with config.capture_scalar_outputs=False."}, "gb-item", LevelGBID},
	{"2.6 item", Query{Kind: "graph_break", Reason: "Unsupported: Tensor.item"}, "gb-item", LevelReason},
	{"2.14 tolist", Query{Kind: "graph_break", GBID: "GB0109", GBType: "Tensor.tolist() with non-integer tensor", Reason: "Dynamo currently does not support tracing `tolist()` on non-integer tensors."}, "gb-data-dependent-op", LevelGBID},
	{"2.6 tolist", Query{Kind: "graph_break", Reason: "Unsupported: Input tensor for tolist must be an integer tensor"}, "gb-data-dependent-op", LevelReason},
	{"2.14 nonzero", Query{Kind: "graph_break", GBID: "GB0036", GBType: "Dynamic shape operator", Reason: "Operator `aten.nonzero.default`'s output shape depends on input Tensor data."}, "gb-dynamic-shape-op", LevelGBID},
	{"2.6 nonzero", Query{Kind: "graph_break", Reason: "Unsupported: dynamic shape operator: aten.nonzero.default; to enable, set torch._dynamo.config.capture_dynamic_output_shape_ops = True"}, "gb-dynamic-shape-op", LevelReason},
	{"logger", Query{Kind: "graph_break", GBID: "GB0291", GBType: "logging.Logger method not supported for non-export cases", Reason: "logging.Logger methods are not supported for non-export cases."}, "gb-logger", LevelGBID},
	{"deepcopy", Query{Kind: "graph_break", GBID: "GB0179", GBType: "copy.deepcopy()", Reason: "Dynamo does not support copy.deepcopy()"}, "gb-deepcopy", LevelGBID},
	{"generator", Query{Kind: "graph_break", GBID: "GB0003", GBType: "Attempt to trace generator", Reason: "Generators cannot be compiled directly with `torch.compile`."}, "gb-generator", LevelGBID},
	{"context manager", Query{Kind: "graph_break", GBID: "GB0142", GBType: "Unsupported context manager", Reason: "Dynamo does not know how to enter a `MyCtx` context manager."}, "gb-context-manager", LevelGBID},
	{"autograd ctx", Query{Kind: "graph_break", GBID: "GB0139", GBType: "Unsupported autograd.Function context method", Reason: "Dynamo does not support calling the method `foo` on `autograd.Function` context objects."}, "gb-autograd-function-ctx", LevelGBID},
	{"requires_grad", Query{Kind: "graph_break", GBID: "GB0206", GBType: "setattr() on Tensor.requires_grad", Reason: "setattr() on Tensor.requires_grad not supported."}, "gb-requires-grad-mutation", LevelGBID},
	{"async_op", Query{Kind: "graph_break", GBID: "GB0172", GBType: "async_op=True for distributed collectives", Reason: "`torch.compile` doesn't support `async_op=True for <function all_reduce>"}, "gb-async-collective", LevelGBID},
	{"p2p", Query{Kind: "graph_break", GBID: "GB2696", GBType: "P2P compilation disabled for isend/irecv", Reason: "P2P compilation is disabled."}, "gb-p2p", LevelGBID},
	{"earlier break", Query{Kind: "graph_break", Reason: "This graph break may have been caused by an earlier graph break. Resolving the earlier graph break may resolve this one."}, "gb-nested-restart", LevelReason},
	{"2.14 unresumable", Query{Kind: "graph_break", Reason: "torch.compile cannot properly resume from this graph break, which results in a skip."}, "gb-unresumable-skip", LevelReason},
	{"graph break in loop", Query{Kind: "graph_break", GBID: "GB7000", GBType: "graph break in loop", Reason: "torch.compile detected a graph break in a for/while loop. Skipping the frame and falling back to eager"}, "gb-unresumable-skip", LevelGBID},
	{"FSDP use_orig_params is not by design", Query{Kind: "graph_break", GBID: "GB0053", GBType: "FSDP with use_orig_params=False", Reason: "Dynamo only supports FSDP with use_orig_params=True"}, "generic-graph_break", LevelFallback},
	{"2.14 user object method", Query{Kind: "graph_break", GBID: "GB0156", GBType: "Unsupported method call", Reason: "Dynamo does not know how to trace method `foo` of class `Bar`"}, "gb-user-object-method", LevelReason},
	// 2.0-2.3 reasons named after Dynamo internals (pasted-logs.md §5)
	{"2.0 user object method", Query{Kind: "graph_break", Reason: "call_method UserDefinedObjectVariable(...)"}, "gb-user-object-method", LevelReason},
	{"2.0 iadd", Query{Kind: "graph_break", Reason: "call_function BuiltinVariable(iadd) [...]"}, "gb-inplace-builtin", LevelReason},
	{"2.0 super setitem", Query{Kind: "graph_break", Reason: "non-function or method super: <slot wrapper '__setitem__' of 'dict' objects>"}, "gb-container-subclass", LevelReason},
	{"unclassified break", Query{Kind: "graph_break", Reason: "Unsupported: call_function UnknownVariable() [] {}"}, "generic-graph_break", LevelFallback},
	// by design
	{"DDPOptimizer", Query{Kind: "graph_break", Reason: "DDPOptimizer intentional graph-break"}, "expected-ddp-optimizer", LevelReason},
	{"DDP forward skip (2.14 fixture)", Query{Kind: "graph_break", GBID: "GB0007", GBType: "Attempted to call function marked as skipped", Reason: ddpSkip}, "expected-ddp-wrapper", LevelGBID},
	{"DDP logger (2.14 fixture)", Query{Kind: "graph_break", GBID: "GB0156", GBType: "Unsupported method call", Reason: "Dynamo does not know how to trace method `set_runtime_stats_and_log` of class `Logger`\nDeveloper debug context: call_method UserDefinedObjectVariable(Logger) set_runtime_stats_and_log [] {}"}, "expected-ddp-wrapper", LevelGBID},
	{"compiler.disable", Query{Kind: "graph_break", GBID: "GB0098", GBType: "Skip calling `torch.compiler.disable()`d function", Reason: "Skip calling function `<function hook at 0x7f>` since it was wrapped with `torch.compiler.disable` (reason: None)"}, "expected-compiler-disable", LevelGBID},
	{"explicit graph_break (2.14 fixture)", Query{Kind: "graph_break", GBID: "GB0025", GBType: "Call to `torch._dynamo.graph_break()`", Reason: "User-inserted graph break. Message: None"}, "expected-explicit-graph-break", LevelGBID},
	// recompiles and limit hits
	{"size", Query{Kind: "recompile", GuardClass: "size", Reason: "tensor 'L['x']' size mismatch at index 0. expected 4, actual 8"}, "rc-shape", LevelGuard},
	{"float (2.14)", Query{Kind: "recompile", GuardClass: "value_float", Reason: "scale == 0.25  # return x * scale + 1  # ork/repro/r03_cache_limit.py:4 in f"}, "rc-value-float", LevelGuard},
	{"int", Query{Kind: "recompile", GuardClass: "value_int", Reason: "L['n'] == 4"}, "rc-value-int", LevelGuard},
	{"str", Query{Kind: "recompile", GuardClass: "value_str", Reason: "L['mode'] == 'a1'"}, "rc-value-str-bool", LevelGuard},
	{"bool", Query{Kind: "recompile", GuardClass: "value_bool", Reason: "L['training'] == True"}, "rc-value-str-bool", LevelGuard},
	{"obj id", Query{Kind: "recompile", GuardClass: "obj_id", Reason: "___check_obj_id(L['fn'], 140211)"}, "rc-object-identity", LevelGuard},
	{"type id", Query{Kind: "recompile", GuardClass: "type", Reason: "___check_type_id(L['xs'], 94821)"}, "rc-type-id", LevelGuard},
	{"dtype", Query{Kind: "recompile", GuardClass: "dtype", Reason: "tensor 'L['x']' dtype mismatch. expected Float, actual BFloat16"}, "rc-dtype", LevelGuard},
	{"device", Query{Kind: "recompile", GuardClass: "device", Reason: "tensor 'L['x']' device mismatch. expected cpu, actual cuda:0"}, "rc-device", LevelGuard},
	{"stride", Query{Kind: "recompile", GuardClass: "stride", Reason: "tensor 'L['x']' stride mismatch at index 0. expected 16, actual 1"}, "rc-stride", LevelGuard},
	{"rank", Query{Kind: "recompile", GuardClass: "rank", Reason: "tensor 'L['x']' rank mismatch. expected 2, actual 3"}, "rc-rank", LevelGuard},
	{"requires_grad guard", Query{Kind: "recompile", GuardClass: "requires_grad", Reason: "tensor 'L['x']' requires_grad mismatch. expected requires_grad=0"}, "rc-requires-grad", LevelGuard},
	{"global state", Query{Kind: "recompile", GuardClass: "global_state", Reason: "GLOBAL_STATE changed: grad_mode"}, "rc-global-state", LevelGuard},
	{"length", Query{Kind: "recompile", GuardClass: "length", Reason: "len(L['xs']) == 3"}, "rc-length", LevelGuard},
	{"parameter", Query{Kind: "recompile", GuardClass: "param_shape", Reason: "Guard failed on a parameter, consider using torch._dynamo.config.force_parameter_static_shapes = False"}, "rc-param-shape", LevelGuard},
	{"backend", Query{Kind: "recompile", GuardClass: "backend", Reason: "___check_current_backend(140011)"}, "rc-backend-change", LevelGuard},
	{"stack float (2.14 fixture)", Query{Kind: "recompile", GuardClass: "stack_float", Reason: "___stack0 == 4.790928840637207  # if x.sum().item() > 0:"}, "rc-stack-float", LevelGuard},
	{"other guard", Query{Kind: "recompile", GuardClass: "other", Reason: "___check_tensors(L['x'])"}, "generic-recompile", LevelFallback},
	{"limit hit, unclassified (2.6)", Query{Kind: "limit_hit", Reason: "torch._dynamo hit config.cache_size_limit (8)\n   function: 'f' (/w/r.py:3)"}, "rc-limit-reached", LevelReason},
	{"limit hit on str (2.14)", Query{Kind: "limit_hit", GuardClass: "value_str", Reason: "torch._dynamo hit config.recompile_limit (8)\n   last reason: 0/7: mode == 'a7'"}, "rc-value-str-bool", LevelGuard},
	{"limit hit, nothing known", Query{Kind: "limit_hit"}, "generic-limit_hit", LevelFallback},
	// CUDA graphs
	{"cg mutated", Query{Kind: "cudagraph_skip", Reason: "skipping cudagraphs due to mutated inputs (2 instances). Found from : "}, "cg-mutated-inputs", LevelReason},
	{"cg cpu", Query{Kind: "cudagraph_skip", Reason: "skipping cudagraphs due to skipping cudagraphs due to cpu device (arg1_1)"}, "cg-cpu-device", LevelReason},
	{"cg devices", Query{Kind: "cudagraph_skip", Reason: "skipping cudagraphs due to multiple devices: device(type='cuda', index=0), device(type='cuda', index=1)"}, "cg-multiple-devices", LevelReason},
	{"cg incompatible", Query{Kind: "cudagraph_skip", Reason: "skipping cudagraphs due to incompatible op aten._local_scalar_dense.default"}, "cg-incompatible-op", LevelReason},
	{"cg dynamic", Query{Kind: "cudagraph_skip", Reason: "skipping cudagraphs due to dynamic shape inputs"}, "cg-dynamic-shapes", LevelReason},
	{"cg re-record", Query{Kind: "cudagraph_skip", Reason: "skipping cudagraph due to function 3 exceeding max re-recording limit (=50) on cudagraph node None due to static input data pointer changed."}, "cg-rerecord-limit", LevelReason},
	{"cg overwritten", Query{Kind: "compile_error", ErrorClass: "RuntimeError", Reason: "Error: accessing tensor output of CUDAGraphs that has been overwritten by a subsequent run."}, "cg-outputs-overwritten", LevelError},
	{"hand capture of compiled fn", Query{Kind: "compile_error", ErrorClass: "RuntimeError", Reason: "CUDA error: operation not permitted when stream is capturing"}, "cg-compile-with-cudagraphs", LevelError},
	{"cg unknown", Query{Kind: "cudagraph_skip", Reason: "skipping cudagraphs due to complex input striding"}, "generic-cudagraph_skip", LevelFallback},
	// compile errors (failures/ fixtures and format reference)
	{"CppCompileError", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.BackendCompilerFailed", Reason: "backend='inductor' raised:\nCppCompileError: C++ compile error\n/tmp/x.h:19:10: fatal error: ATen/NumericUtils.h: No such file or directory"}, "err-cpp-toolchain", LevelError},
	{"setuptools", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.BackendCompilerFailed", Reason: "backend='inductor' raised:\nModuleNotFoundError: No module named 'setuptools.command'"}, "err-cpp-toolchain", LevelError},
	{"ptxas sm_100a", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.BackendCompilerFailed", Reason: "backend='inductor' raised:\nRuntimeError: ptxas fatal   : Value 'sm_100a' is not defined for option 'gpu-name'"}, "err-triton-ptxas", LevelError},
	{"broken backend (tlparse fixture)", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.BackendCompilerFailed", Reason: "backend='broken_backend' raised:\nRuntimeError: broken backend"}, "err-backend-ablation", LevelError},
	{"fullgraph unsupported (2.6)", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.Unsupported", Reason: "call_method UserDefinedObjectVariable(instancemethod) __call__ [] {}"}, "err-fullgraph-unsupported", LevelError},
	{"fullgraph print (2.14)", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.Unsupported", GBID: "GB0059", GBType: gt0059, Reason: ex0059}, "gb-print", LevelGBID},
	{"fail on limit", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.FailOnRecompileLimitHit", Reason: "recompile_limit reached with fullgraph=True"}, "err-fail-on-recompile", LevelError},
	{"port in use (2.6 fixture)", Query{Kind: "compile_error", ErrorClass: "torch.distributed.DistNetworkError", Reason: "The server socket has failed to bind to [::]:29555 (errno: 98 - Address already in use)."}, "dist-rendezvous-port", LevelError},
	{"bad TORCH_LOGS (fixture)", Query{Kind: "compile_error", ErrorClass: "ValueError", Reason: "Invalid log settings: graph_breaks,flex_gemm, must be a comma separated list of fully qualified module names"}, "err-invalid-torch-logs", LevelError},
	{"unknown compile error", Query{Kind: "compile_error", ErrorClass: "KeyError", Reason: "'weight'"}, "generic-compile_error", LevelFallback},
	{"the program's own error", Query{Kind: "runtime_error", ErrorClass: "KeyError", Reason: "'weight'"}, "generic-runtime_error", LevelFallback},
	{"unknown partition reason", Query{Kind: "cudagraph_partition", Reason: "reason=some new ops"}, "generic-cudagraph_partition", LevelFallback},
	{"unknown re-record reason", Query{Kind: "cudagraph_rerecord", Reason: "a new check failed"}, "generic-cudagraph_rerecord", LevelFallback},
	{"unknown GPU warning", Query{Kind: "gpu_warning", Reason: "something new"}, "generic-gpu_warning", LevelFallback},
	// distributed, stalls, probes: triage-written reasons
	{"triage: ranks break differently", Query{Kind: "rank_disagreement", Reason: "graph breaks differ: rank 0 has 1 (builtin print at r05_dist_c10d.py:9), rank 1 has 0"}, "dist-rank-divergent-graphs", LevelReason},
	{"triage: conditional collective", Query{Kind: "rank_disagreement", Reason: "all_reduce issued only on rank 0 (conditional collective)"}, "dist-conditional-collective", LevelReason},
	{"triage: warm-up", Query{Kind: "rank_disagreement", Reason: "rank 1 still compiling after warm-up finished on rank 0"}, "dist-warmup-lockstep", LevelReason},
	{"triage: rank exit", Query{Kind: "rank_disagreement", Reason: "rank 1 exited with status 1, rank 0 did not"}, "generic-rank_disagreement", LevelFallback},
	{"triage: env differs", Query{Kind: "config_parity", Reason: "TORCH_LOGS differs: rank 0 'graph_breaks', rank 1 ''"}, "dist-config-parity", LevelReason},
	{"triage: python differs", Query{Kind: "config_parity", Reason: "python executable differs: /usr/bin/python3 vs /opt/py/bin/python3"}, "generic-config_parity", LevelFallback},
	{"triage: no output", Query{Kind: "stall", Reason: "no output for 300s"}, "stall-compile-hang", LevelReason},
	{"triage: compile time", Query{Kind: "stall", Reason: "compile time 1850s for frame forward exceeds the budget"}, "large-model-compile-time", LevelReason},
	{"CUDA OOM (2.11 fixture)", Query{Kind: "runtime_error", ErrorClass: "torch.OutOfMemoryError", Reason: "CUDA out of memory. Tried to allocate 200.00 GiB."}, "rt-cuda-oom", LevelError},
	{"NCCL error (2.11 fixture)", Query{Kind: "runtime_error", ErrorClass: "torch.distributed.DistBackendError", Reason: "NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93, invalid usage"}, "dist-nccl-error", LevelError},
	{"triage: slower than eager", Query{Kind: "stall", Reason: "compiled step is 3% slower than eager baseline"}, "eager-vs-compiled", LevelReason},
	{"triage: watchdog", Query{Kind: "stall", Reason: "watchdog fired"}, "generic-stall", LevelFallback},
	{"triage: breaks not logged", Query{Kind: "probe_mismatch", Reason: "log shows 0 graph breaks, the process counted 2"}, "probe-fewer-breaks-logged", LevelReason},
	{"triage: recompiles not logged", Query{Kind: "probe_mismatch", Reason: "log shows 0 recompiles, the process counted 3"}, "probe-recompiles-not-logged", LevelReason},
	{"triage: frames differ", Query{Kind: "probe_mismatch", Reason: "probe saw 2 compiled frames, log shows 1"}, "generic-probe_mismatch", LevelFallback},
	{"unknown kind", Query{Kind: "mystery"}, UnknownFallbackID, LevelFallback},
}

func TestReachability(t *testing.T) {
	s := mustBuiltin(t)
	primaryOf := map[string]int{}
	for _, c := range reachCases {
		r := s.Match(c.q)
		if r.Primary == nil {
			t.Errorf("%s: no primary", c.name)
			continue
		}
		primaryOf[r.Primary.ID]++
		if r.Primary.ID != c.want || r.Level != c.level {
			t.Errorf("%s: primary %s at level %s, want %s at %s", c.name, r.Primary.ID, r.Level, c.want, c.level)
		}
		for _, rel := range r.Related {
			if rel == r.Primary {
				t.Errorf("%s: primary listed in Related", c.name)
			}
		}
	}
	var unreached []string
	for _, p := range s.All() {
		if primaryOf[p.ID] == 0 {
			unreached = append(unreached, p.ID)
		}
	}
	sort.Strings(unreached)
	if len(unreached) > 0 {
		t.Errorf("%d built-in playbooks are the primary of no case: %s", len(unreached), strings.Join(unreached, ", "))
	}
}
