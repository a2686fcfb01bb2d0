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
	// g14_cuda_oom.perf.log, torch.OutOfMemoryError's message as the triage layer passes it
	gpuOOM  = "CUDA out of memory. Tried to allocate 200.00 GiB. GPU 0 has a total capacity of 79.18 GiB of which 75.75 GiB is free. Process 1284 has 612.00 MiB memory in use. Process 2223 has 522.00 MiB memory in use. Process 2050 has 784.00 MiB memory in use. Including non-PyTorch memory, this process has 522.00 MiB memory in use. Process 2436 has 518.00 MiB memory in use. Process 2435 has 518.00 MiB memory in use. Of the allocated memory 512 bytes is allocated by PyTorch, and 2.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)"
	ddpSkip = "Dynamo developers have intentionally marked that the function `DistributedDataParallel._inside_ddp_forward` in file `/usr/lib/python3/dist-packages/torch/_compile.py` should not be traced.\n" +
		"Developer debug context: module: torch.nn.parallel.distributed, qualname: DistributedDataParallel._inside_ddp_forward, skip reason: file matches MOD_SKIPLIST (/usr/lib/python3/dist-packages/torch/_compile)"
)

var reachCases = []reachCase{
	// graph breaks, 2.14 (gb_type + GB id) and 2.6 (Reason: line)
	{"2.14 print", Query{Kind: "graph_break", GBID: "GB0059", GBType: gt0059, Reason: ex0059}, "gb-print", LevelGBID},
	{"2.6 print", Query{Kind: "graph_break", Reason: "Unsupported: builtin: print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False"}, "gb-print", LevelReason},
	// other builtins in 2.6's words (real realtorch runs): open(), an unsupported builtin, logging's getLogger
	{"2.6 open", Query{Kind: "graph_break", Reason: "Unsupported: builtin: open [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False"}, "gb-skipped-function", LevelReason},
	{"2.6 time.time", Query{Kind: "graph_break", Reason: "Unsupported: Graph break due to unsupported builtin time.time. This function is either a Python builtin (e.g. _warnings.warn) or a third-party C/C++ Python extension (perhaps created with pybind)."}, "gb-skipped-function", LevelReason},
	{"2.6 getLogger", Query{Kind: "graph_break", Reason: "Unsupported: 'skip function getLogger in file /usr/lib/python3.13/logging/__init__.py'"}, "gb-logger", LevelReason},
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
	// 2.6 skips contextlib: a @contextmanager's generator is "skip function NAME in file …/contextlib.py" (realtorch
	// 2.6, testdata/recorded/ctxmgr-26; the frame's resume is skipped with "BEFORE_WITH …(_GeneratorContextManager)")
	{"2.6 contextmanager", Query{Kind: "graph_break", Reason: "Unsupported: 'skip function mine in file /usr/lib/python3.13/contextlib.py'"}, "gb-context-manager", LevelReason},
	{"context manager", Query{Kind: "graph_break", GBID: "GB0142", GBType: "Unsupported context manager", Reason: "Dynamo does not know how to enter a `MyCtx` context manager."}, "gb-context-manager", LevelGBID},
	{"autograd ctx", Query{Kind: "graph_break", GBID: "GB0139", GBType: "Unsupported autograd.Function context method", Reason: "Dynamo does not support calling the method `foo` on `autograd.Function` context objects."}, "gb-autograd-function-ctx", LevelGBID},
	{"requires_grad", Query{Kind: "graph_break", GBID: "GB0206", GBType: "setattr() on Tensor.requires_grad", Reason: "setattr() on Tensor.requires_grad not supported."}, "gb-requires-grad-mutation", LevelGBID},
	{"async_op", Query{Kind: "graph_break", GBID: "GB0172", GBType: "async_op=True for distributed collectives", Reason: "`torch.compile` doesn't support `async_op=True for <function all_reduce>"}, "gb-async-collective", LevelGBID},
	{"p2p", Query{Kind: "graph_break", GBID: "GB2696", GBType: "P2P compilation disabled for isend/irecv", Reason: "P2P compilation is disabled."}, "gb-p2p", LevelGBID},
	{"earlier break", Query{Kind: "graph_break", Reason: "This graph break may have been caused by an earlier graph break. Resolving the earlier graph break may resolve this one."}, "gb-nested-restart", LevelReason},
	{"2.14 unresumable", Query{Kind: "graph_break", Reason: "torch.compile cannot properly resume from this graph break, which results in a skip."}, "gb-unresumable-skip", LevelReason},
	{"graph break in loop", Query{Kind: "graph_break", GBID: "GB7000", GBType: "graph break in loop", Reason: "torch.compile detected a graph break in a for/while loop. Skipping the frame and falling back to eager"}, "gb-unresumable-skip", LevelGBID},
	// no built-in playbook for GB0053: PyTorch's own words (the registry playbook), which is not by design either
	{"FSDP use_orig_params is not by design", Query{Kind: "graph_break", GBID: "GB0053", GBType: "FSDP with use_orig_params=False", Reason: "Dynamo only supports FSDP with use_orig_params=True"}, "gb-registry-0053", LevelGBID},
	{"2.14 user object method", Query{Kind: "graph_break", GBID: "GB0156", GBType: "Unsupported method call", Reason: "Dynamo does not know how to trace method `foo` of class `Bar`"}, "gb-user-object-method", LevelGBID},
	// 2.0-2.3 reasons named after Dynamo internals (pasted-logs.md §5)
	{"2.0 user object method", Query{Kind: "graph_break", Reason: "call_method UserDefinedObjectVariable(...)"}, "gb-user-object-method", LevelReason},
	{"2.0 iadd", Query{Kind: "graph_break", Reason: "call_function BuiltinVariable(iadd) [...]"}, "gb-inplace-builtin", LevelReason},
	{"2.0 super setitem", Query{Kind: "graph_break", Reason: "non-function or method super: <slot wrapper '__setitem__' of 'dict' objects>"}, "gb-container-subclass", LevelReason},
	{"unclassified break", Query{Kind: "graph_break", Reason: "Unsupported: call_function UnknownVariable() [] {}"}, "generic-graph_break", LevelFallback},
	// by design
	{"DDPOptimizer", Query{Kind: "graph_break", Reason: "DDPOptimizer intentional graph-break"}, "expected-ddp-optimizer", LevelReason},
	{"triage: DDPOptimizer split (testdata/recorded/ddp-optimizer)", Query{Kind: "ddp_split", Reason: "DDPOptimizer split the graph of compile 4/0 into 3 submodules at DDP bucket boundaries — by design"}, "expected-ddp-optimizer", LevelReason},
	{"triage: a split of other words", Query{Kind: "ddp_split", Reason: "a graph split into 2"}, "generic-ddp_split", LevelFallback},
	{"LR scheduler's opt.step wrapper (testdata/recorded/train-loop 0004, 2.14.1)", Query{Kind: "graph_break", GBID: "GB0007", GBType: "Attempted to call function marked as skipped", Reason: "Dynamo developers have intentionally marked that the function `Adam.step` in file `/usr/lib/python3/dist-packages/torch/optim/lr_scheduler.py` should not be traced.\nHint: Avoid calling the function `Adam.step`.\nHint: Apply `@torch._dynamo.dont_skip_tracing` to the function `Adam.step` to force tracing into the function. More graph breaks may occur as a result of attempting to trace into the function.\nHint: Please file an issue to PyTorch.\nDeveloper debug context: module: torch.optim.adam, qualname: Adam.step, skip reason: file is force-skipped (/usr/lib/python3/dist-packages/torch/optim/lr_scheduler.py)"}, "expected-lr-scheduler-step", LevelGBID},
	{"2.6 opt.step wrapped (testdata/recorded/train-loop 0005, 0010, 0011)", Query{Kind: "graph_break", Reason: "Unsupported: call_method OptimizerVariable(Adam) step [] {}"}, "gb-optimizer-step-wrapped", LevelReason},
	{"2.6 another optimizer method is not opt.step", Query{Kind: "graph_break", Reason: "Unsupported: call_method OptimizerVariable(Adam) zero_grad [] {}"}, "generic-graph_break", LevelFallback},
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
	// the accuracy check's exception (2.14 and 2.6 after aot: the class itself; 2.6 after dynamo: inside BackendCompilerFailed)
	{"accuracy check failed", Query{Kind: "accuracy", ErrorClass: "torch._dynamo.debug_utils.AccuracyError", Reason: "Bad accuracy detected"}, "accuracy-check-failed", LevelError},
	{"wrong result, no check", Query{Kind: "accuracy"}, "generic-accuracy", LevelFallback},
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
	// GPU, torch 2.11 on an H100: the exact texts of testdata/fixtures/torch-2.11-cuda (gNN = its repro); marked
	// "doc", texts of /work/shared/docs/gpu-cuda-graphs-2.11.md that no shipped fixture contains; marked "H100 check",
	// lines printed by 2.11 on an H100 for g16's nonzero function with graph_partition on (not shipped as a fixture).
	{"g01 partition: CPU input copied to the GPU", Query{Kind: "cudagraph_partition", Reason: "reason=DeviceCopy ops op=op0 ir=DeviceCopy fx=prims.device_put.default(arg1_1, cuda:0)"}, "cg-partition-device-copy", LevelReason},
	{"g03 partition: dynamic shape ops", Query{Kind: "cudagraph_partition", Reason: "reason=dynamic shape ops op=op0_op1 ir=NoneType fx="}, "cg-partition-dynamic-shapes", LevelReason},
	{"doc partition: cpu ops", Query{Kind: "cudagraph_partition", Reason: "reason=cpu ops op=op1 ir=ComputedBuffer fx=aten.add.Tensor(arg1_1, 1)"}, "cg-partition-cpu-ops", LevelReason},
	{"H100 check: nonzero's size assert on the CPU", Query{Kind: "cudagraph_partition", Reason: "reason=cpu ops op=op2 ir=AssertScalar fx="}, "cg-data-dependent-shape", LevelReason},
	{"H100 check: nonzero (capture_dynamic_output_shape_ops)", Query{Kind: "cudagraph_partition", Reason: "reason=unbacked binding ops op=op0 ir=FallbackKernel fx=aten.nonzero.default(arg0_1)"}, "cg-data-dependent-shape", LevelReason},
	{"doc partition: cudagraph-unsafe custom op", Query{Kind: "cudagraph_partition", Reason: "reason=CUDAGraph-unsafe custom ops op=op1 ir=FallbackKernel fx=mylib.modify.default(arg0_1)"}, "cg-partition-unsafe-custom-op", LevelReason},
	{"doc partition: torch.cond (2.11)", Query{Kind: "cudagraph_partition", Reason: "reason=Conditional ops op=op3 ir=Conditional fx="}, "cg-partition-control-flow", LevelReason},
	{"doc partition: torch.cond (2.14)", Query{Kind: "cudagraph_partition", Reason: "reason=Switch ops op=op3 ir=Conditional fx="}, "cg-partition-control-flow", LevelReason},
	{"doc partition: custom_should_partition_ops", Query{Kind: "cudagraph_partition", Reason: "reason=custom partition op: modify op=op1 ir=FallbackKernel fx=mylib.modify.default(arg0_1)"}, "cg-partition-custom-op-config", LevelReason},
	{"g13b re-record: parameter moved", Query{Kind: "cudagraph_rerecord", Reason: "static input data pointer changed. (input arg0_1)"}, "cg-rerecord-static-input", LevelReason},
	{"g02/g16 skip: mutated input", Query{Kind: "cudagraph_skip", Reason: "mutated inputs (1 instances)"}, "cg-mutated-inputs", LevelReason},
	{"g16 skip: cpu device", Query{Kind: "cudagraph_skip", Reason: "cpu device (arg1_1)"}, "cg-cpu-device", LevelReason},
	{"g16 skip: nonzero", Query{Kind: "cudagraph_skip", Reason: "incompatible op aten.nonzero.default"}, "cg-data-dependent-shape", LevelReason},
	{"g13b skip: re-record limit", Query{Kind: "cudagraph_skip", Reason: "function 0 exceeding max re-recording limit (=3) on cudagraph node None due to static input data pointer changed"}, "cg-rerecord-limit", LevelReason},
	{"g05b compile inside a manual capture", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.BackendCompilerFailed", Reason: "backend='inductor' raised:\nRuntimeError: Cannot copy between CPU and CUDA tensors during CUDA graph capture unless the CPU tensor is pinned. Please use tensor.pin_memory() or allocate the tensor with pin_memory=True."}, "cg-capture-cold-compile", LevelError},
	{"g05c reduce-overhead inside a manual capture", Query{Kind: "runtime_error", ErrorClass: "RuntimeError", Reason: "Cannot prepare for replay during capturing stage. during CUDA graph capture. If you need this call to be captured, please file an issue. Current cudaStreamCaptureStatus: cudaStreamCaptureStatusActive"}, "cg-manual-capture", LevelError},
	{"g14 CUDA OOM", Query{Kind: "runtime_error", ErrorClass: "torch.OutOfMemoryError", Reason: gpuOOM}, "gpu-cuda-oom", LevelError},
	{"g09a NCCL duplicate GPU", Query{Kind: "runtime_error", ErrorClass: "torch.distributed.DistBackendError", Reason: "NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.28.9\nncclInvalidUsage: This usually reflects invalid usage of NCCL library.\nLast error:\nDuplicate GPU detected : rank 1 and rank 0 both on CUDA device 60"}, "dist-nccl-duplicate-gpu", LevelError},
	{"g11 user Triton kernel", Query{Kind: "compile_error", ErrorClass: "torch._inductor.exc.InductorError", Reason: "CompilationError: at 3:25:\ndef add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\npid = tl.program_id(0)\noffs = pid * BLOCK + tl.arange(0, 48)    # 48 is not a power of 2: Triton refuses\n^\narange's range must be a power of 2"}, "err-user-triton-kernel", LevelError},
	{"doc overwritten output (2.11, training loop)", Query{Kind: "runtime_error", ErrorClass: "RuntimeError", Reason: "Error: accessing tensor output of CUDAGraphs that has been overwritten by a subsequent run. Stack trace: [Could not find stack trace]. To prevent overwriting, clone the tensor outside of torch.compile() or call torch.compiler.cudagraph_mark_step_begin() before each model invocation."}, "cg-outputs-overwritten", LevelError},
	{"doc overwritten gradient (2.14)", Query{Kind: "runtime_error", ErrorClass: "RuntimeError", Reason: "Error: accessing gradient tensor output of CUDAGraphs that has been overwritten by a subsequent run. Stack trace: [Could not find stack trace]."}, "cg-outputs-overwritten", LevelError},
	{"g03 warning: distinct sizes", Query{Kind: "gpu_warning", Reason: "CUDAGraph supports dynamic shapes by recording a new graph for each distinct input size. Recording too many CUDAGraphs may lead to extra overhead. We have observed 9 distinct sizes. Please consider the following options for better performance: a) padding inputs to a few fixed number of shapes; or b) set torch._inductor.config.triton.cudagraph_skip_dynamic_graphs=True. Set torch._inductor.config.triton.cudagraph_dynamic_shape_warn_limit=None to silence this warning."}, "cg-distinct-sizes", LevelReason},
	{"g15b warning: pending backwards", Query{Kind: "gpu_warning", Reason: "Unable to hit fast path of CUDAGraphs because of pending, uninvoked backwards. Consider running with torch.no_grad() or using torch.compiler.cudagraph_mark_step_begin() before each model invocation"}, "cg-pending-backward", LevelReason},
	{"doc warning: pending backwards (2.14)", Query{Kind: "gpu_warning", Reason: "Unable to hit fast path of CUDAGraphs because outputs from a previous step still require backward. Ensure backward() is invoked or detach outputs. You may also call torch.compiler.cudagraph_mark_step_begin() before each model invocation."}, "cg-pending-backward", LevelReason},
	{"g13b/g15b warning: TF32 hint", Query{Kind: "gpu_warning", Reason: "TensorFloat32 tensor cores for float32 matrix multiplication available but not enabled. Consider setting `torch.set_float32_matmul_precision('high')` for better performance."}, "gpu-tf32-hint", LevelReason},
	{"g05b warning: empty CUDA graph", Query{Kind: "gpu_warning", Reason: "The CUDA Graph is empty. This usually means that the graph was attempted to be captured on wrong device or stream. (Triggered internally at /pytorch/aten/src/ATen/cuda/CUDAGraph.cpp:147.)"}, "cg-capture-empty", LevelReason},
	{"doc warning: autotune candidate out of resource", Query{Kind: "gpu_warning", Reason: "Exception No valid triton configs. OutOfMemoryError: out of resource: triton_mm Required: 262144 Hardware limit:232448 Reducing block sizes or `num_stages` may help. for benchmark choice TritonTemplateCaller(...)"}, "gpu-autotune-out-of-resource", LevelReason},
	{"doc warning: autotune candidate failed at run time", Query{Kind: "gpu_warning", Reason: "Runtime error during autotuning: \nCUDA error: an illegal memory access was encountered. \nIgnoring this choice."}, "gpu-autotune-out-of-resource", LevelReason},
	// compile errors (failures/ fixtures and format reference)
	{"CppCompileError", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.BackendCompilerFailed", Reason: "backend='inductor' raised:\nCppCompileError: C++ compile error\n/tmp/x.h:19:10: fatal error: ATen/NumericUtils.h: No such file or directory"}, "err-cpp-toolchain", LevelError},
	{"CppCompileError in generated code", Query{Kind: "compile_error", ErrorClass: "torch._inductor.exc.InductorError", Reason: "CppCompileError: C++ compile error\n/tmp/c/2z/c2z.main.cpp:16:33: error: ‘compile’ was not declared in this scope"}, "err-inductor-codegen", LevelError},
	{"gloo size check", Query{Kind: "runtime_error", ErrorClass: "gloo::EnforceNotMet", Reason: "[enforce fail at ./gloo/transport/tcp/pair.cc:446] op.preamble.length <= op.nbytes. 48 vs 32"}, "dist-collective-size-mismatch", LevelError},
	{"setuptools", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.BackendCompilerFailed", Reason: "backend='inductor' raised:\nModuleNotFoundError: No module named 'setuptools.command'"}, "err-cpp-toolchain", LevelError},
	{"ptxas sm_100a", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.BackendCompilerFailed", Reason: "backend='inductor' raised:\nRuntimeError: ptxas fatal   : Value 'sm_100a' is not defined for option 'gpu-name'"}, "err-triton-ptxas", LevelError},
	{"broken backend (tlparse fixture)", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.BackendCompilerFailed", Reason: "backend='broken_backend' raised:\nRuntimeError: broken backend"}, "err-backend-ablation", LevelError},
	{"fullgraph unsupported (2.6)", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.Unsupported", Reason: "call_method UserDefinedObjectVariable(instancemethod) __call__ [] {}"}, "err-fullgraph-unsupported", LevelError},
	{"fullgraph print (2.14)", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.Unsupported", GBID: "GB0059", GBType: gt0059, Reason: ex0059}, "gb-print", LevelGBID},
	{"Enum member (testdata/answers a01, 2.14)", Query{Kind: "recompile", GuardClass: "enum", Reason: "___check_obj_id(mode, 140377630248304), type=<class '__main__.Mode'>"}, "rc-enum-variant", LevelGuard},
	{"past is None (testdata/answers a07)", Query{Kind: "recompile", GuardClass: "none", Reason: "past is None"}, "rc-none-variant", LevelGuard},
	{"optional dict key (testdata/answers a04)", Query{Kind: "recompile", GuardClass: "dict_key", Reason: "not ___dict_contains('mask', batch)"}, "rc-dict-key", LevelGuard},
	{"lazy buffer (testdata/answers a05)", Query{Kind: "recompile", GuardClass: "hasattr", Reason: "not hasattr(self, 'pe')"}, "rc-hasattr-lazy", LevelGuard},
	{"global list (testdata/answers a06)", Query{Kind: "recompile", GuardClass: "global_container", Reason: "not G['history']"}, "rc-global-container", LevelGuard},
	{"module attribute (testdata/answers a09)", Query{Kind: "recompile", GuardClass: "module_attr", Reason: "self.scale == 1"}, "rc-module-attr", LevelGuard},
	{"closure cell (testdata/answers a15, 2.14)", Query{Kind: "recompile", GuardClass: "closure_cell", Reason: "G['helper'].__closure__[0].cell_contents == 0.5"}, "rc-closure-cell", LevelGuard},
	{"torch.compile(dynamic=False) (testdata/recorded/compile-site)", Query{Kind: "recompile", Reason: "torch.compile(dynamic=False)"}, "rc-dynamic-false", LevelReason},
	{"data-dependent guard under fullgraph (testdata/answers f06, 2.14)", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.UserError", Reason: "Consider annotating your code using torch._check*(). Could not guard on data-dependent expression zuf0 > 0.0 (unhinted: zuf0 > 0.0).  (Size-like symbols: none)\n\nconsider using data-dependent friendly APIs such as guard_or_false, guard_or_true and statically_known_true.\nFor more information, run with TORCH_LOGS=\"dynamic\""}, "err-data-dependent-guard", LevelError},
	{"sys.stdout.write (testdata/answers g01, 2.14)", Query{Kind: "graph_break", GBID: "GB0156", GBType: "Unsupported method call", Reason: "Dynamo does not know how to trace method `write` of class `TextIOWrapper`\nHint: Avoid calling `TextIOWrapper.write` in your code.\ncall_method UserDefinedObjectVariable(TextIOWrapper) write [ConstantVariable(str: 'step\\n')] {}"}, "gb-stdout-write", LevelGBID},
	{"sys.stdout.flush (2.6)", Query{Kind: "graph_break", Reason: "Unsupported: call_method UserDefinedObjectVariable(TextIOWrapper) flush [] {}"}, "gb-stdout-write", LevelReason},
	{"os.getpid (testdata/answers g02, 2.14)", Query{Kind: "graph_break", GBID: "GB0007", GBType: "Attempted to call function marked as skipped", Reason: "Dynamo does not know how to trace the builtin `posix.getpid.` This function is either a Python builtin\nmodule: posix, qualname: getpid, skip reason: cannot determine source file for posix"}, "gb-getpid", LevelGBID},
	{"LSTM (testdata/answers g03, 2.14)", Query{Kind: "graph_break", GBID: "GB0014", GBType: "Attempted to wrap RNN, GRU, or LSTM", Reason: "Dynamo does not support RNN, GRU, or LSTM."}, "gb-rnn", LevelGBID},
	{"LSTM (2.6 frame skip)", Query{Kind: "graph_break", Reason: "skip: from user code at:\nTorchDynamo purposely graph breaks on RNN, GRU, LSTMs"}, "gb-rnn", LevelReason},
	{"backward (testdata/answers g04, 2.14)", Query{Kind: "graph_break", GBID: "GB0123", GBType: "Unsupported Tensor.backward() call", Reason: "Dynamo currently does not support tracing `Tensor.backward()` when trace_autograd_ops is off."}, "gb-backward", LevelGBID},
	{"backward (2.6)", Query{Kind: "graph_break", Reason: "Unsupported: Tensor.backward"}, "gb-backward", LevelReason},
	{"custom op without fake (testdata/answers e01, 2.14)", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.TorchRuntimeError", GBID: "GB4315", GBType: "RuntimeError when making fake tensor call", Reason: "RuntimeError when making fake tensor call\n  Explanation: Dynamo failed to run FX node with fake tensors: call_function tt.scale_rows.default(*(FakeTensor(..., size=(4, 4)),), **{}): got RuntimeError('There was no fake impl registered for <CustomOpDef(tt::scale_rows)>.')"}, "err-custom-op-fake", LevelGBID},
	{"custom op without fake (testdata/answers e01, 2.6)", Query{Kind: "compile_error", Reason: "Failed running call_function tt.scale_rows.default(*(FakeTensor(..., size=(4, 4)),), **{}):\nThere was no fake impl registered for <CustomOpDef(tt::scale_rows)>. This is necessary for torch.compile/export/fx tracing to work."}, "err-custom-op-fake", LevelError},
	{"absurd CPU allocation (testdata/answers e02)", Query{Kind: "runtime_error", ErrorClass: "RuntimeError", Reason: "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 64000000000000 bytes. Error code 12 (Cannot allocate memory)"}, "mem-cpu-alloc", LevelError},
	{"guard check crash (torch-2.15-and-frameworks.md §3.4)", Query{Kind: "runtime_error", ErrorClass: "AssertionError", Reason: "Guard check failed: 0/3: eval_is_non_overlapping_and_dense() takes 2 positional arguments but 8 were given"}, "err-guard-check-crash", LevelError},
	{"constraint violation (match_registry_test's message)", Query{Kind: "compile_error", ErrorClass: "torch.fx.experimental.symbolic_shapes.ConstraintViolationError", Reason: "Constraints violated (L['x'].size()[0])! For more information, run with TORCH_LOGS=\"+dynamic\"."}, "err-constraint-violation", LevelError},
	{"gloo recv timeout (testdata/dist-hangs h01)", Query{Kind: "runtime_error", ErrorClass: "RuntimeError", Reason: "[./gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 15000ms for recv operation to complete"}, "dist-collective-timeout", LevelError},
	{"DETAIL mismatch error (testdata/dist-hangs h02)", Query{Kind: "runtime_error", ErrorClass: "RuntimeError", Reason: "Detected mismatch between collectives on ranks. Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=1, OpType=ALLREDUCE"}, "dist-collective-mismatch", LevelError},
	{"the program's own exception (testdata/dist-hangs h04)", Query{Kind: "runtime_error", ErrorClass: "ValueError", Reason: "raised in the program's own code: rank 1: bad batch at step 1"}, "err-program-exception", LevelReason},
	{"SpeculationLog diverged (fixtures torch-2.6/ddp_2ranks)", Query{Kind: "compile_error", ErrorClass: "AssertionError", Reason: "SpeculationLog diverged at index 0 (log had 4 entries):"}, "err-dynamo-internal", LevelError},
	{"fail on limit", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.FailOnRecompileLimitHit", Reason: "recompile_limit reached with fullgraph=True"}, "err-fail-on-recompile", LevelError},
	{"peer gone (testdata/recorded/peer-abort)", Query{Kind: "runtime_error", ErrorClass: "RuntimeError", Reason: "[./gloo/transport/tcp/pair.cc:547] Connection closed by peer [127.0.0.1]:44673"}, "dist-peer-gone", LevelReason},
	{"torch.autograd.grad in compiled code (testdata/heldout2 g19, 2.6)", Query{Kind: "graph_break", Reason: "Unsupported: 'skip function grad in file /usr/lib/python3/dist-packages/torch/autograd/__init__.py'"}, "gb-autograd-grad", LevelReason},
	{"a fake run that raised an eager error (testdata/heldout2 g18, 2.6)", Query{Kind: "compile_error", ErrorClass: "torch._dynamo.exc.TorchRuntimeError", Reason: "Failed running call_method sub_(*(FakeTensor(..., size=(4,), requires_grad=True), FakeTensor(..., size=(4,))), **{}):\na leaf Variable that requires grad is being used in an in-place operation."}, "err-fake-run-eager-error", LevelError},
	{"DDPOptimizer's bucket check (testdata/heldout h29, 2.14 and 2.6)", Query{Kind: "runtime_error", ErrorClass: "AssertionError", Reason: "First bucket should be smaller/equal to other buckets to get comms warmed up ASAP"}, "dist-ddp-optimizer-bucket", LevelError},
	{"no libuv (testdata/recorded/rendezvous-libuv)", Query{Kind: "runtime_error", ErrorClass: "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError", Reason: "The connection to the C10d store has failed. See inner exception for details.\nDistStoreError: use_libuv was requested but PyTorch was built without libuv support, run with USE_LIBUV=0 to disable it."}, "dist-rendezvous-libuv", LevelReason},
	{"port in use (2.6 fixture)", Query{Kind: "compile_error", ErrorClass: "torch.distributed.DistNetworkError", Reason: "The server socket has failed to bind to [::]:29555 (errno: 98 - Address already in use)."}, "dist-rendezvous-port", LevelError},
	{"bad TORCH_LOGS (fixture)", Query{Kind: "compile_error", ErrorClass: "ValueError", Reason: "Invalid log settings: graph_breaks,flex_gemm, must be a comma separated list of fully qualified module names"}, "err-invalid-torch-logs", LevelError},
	{"unknown compile error", Query{Kind: "compile_error", ErrorClass: "KeyError", Reason: "'weight'"}, "generic-compile_error", LevelFallback},
	{"an error the program did not raise itself", Query{Kind: "runtime_error", ErrorClass: "KeyError", Reason: "'weight'"}, "generic-runtime_error", LevelFallback},
	{"unknown partition reason", Query{Kind: "cudagraph_partition", Reason: "reason=some new ops"}, "generic-cudagraph_partition", LevelFallback},
	{"unknown re-record reason", Query{Kind: "cudagraph_rerecord", Reason: "a new check failed"}, "generic-cudagraph_rerecord", LevelFallback},
	{"unknown GPU warning", Query{Kind: "gpu_warning", Reason: "something new"}, "generic-gpu_warning", LevelFallback},
	// distributed, stalls, probes: triage-written reasons
	{"triage: ranks break differently", Query{Kind: "rank_disagreement", Reason: "graph breaks differ: rank 0 has 1 (builtin print at r05_dist_c10d.py:9), rank 1 has 0"}, "dist-rank-divergent-graphs", LevelReason},
	{"triage: conditional collective", Query{Kind: "rank_disagreement", Reason: "all_reduce issued only on rank 0 (conditional collective)"}, "dist-conditional-collective", LevelReason},
	{"triage: warm-up", Query{Kind: "rank_disagreement", Reason: "rank 1 still compiling after warm-up finished on rank 0"}, "dist-warmup-lockstep", LevelReason},
	{"triage: rank exit", Query{Kind: "rank_disagreement", Reason: "rank 1 exited with status 1, rank 0 did not"}, "generic-rank_disagreement", LevelFallback},
	{"triage: hang, ranks in different collectives", Query{Kind: "hang", Reason: "conditional collective: rank 0 waits in all_reduce · rank 1 in barrier"}, "dist-conditional-collective", LevelReason},
	{"triage: hang, DETAIL names the ops", Query{Kind: "hang", Reason: "collective mismatch: rank 0 all_reduce, rank 1 broadcast"}, "dist-collective-mismatch", LevelReason},
	{"after warm-up: the short last batch (testdata/recorded/after-warmup)", Query{Kind: "compile_after_warmup", GuardClass: "size", Reason: "tensor 'x' size mismatch at index 0. expected 8, actual 5"}, "warmup-new-size", LevelGuard},
	{"after warm-up: a value guard", Query{Kind: "compile_after_warmup", GuardClass: "value", Reason: "mode == 'train'"}, "generic-compile_after_warmup", LevelFallback},
	{"after warm-up: a new frame", Query{Kind: "compile_after_warmup", Reason: "new frame after warm-up"}, "warmup-new-path", LevelReason},
	{"after warm-up: a kernel JIT during inference (vLLM)", Query{Kind: "compile_after_warmup", Reason: "kernel jit compile during inference"}, "warmup-serving-compile", LevelReason},
	{"triage: hang, a rank died first", Query{Kind: "hang", Reason: "rank dead: rank 1 failed first while rank 0 waits in all_reduce"}, "dist-rank-dead-first", LevelReason},
	{"triage: hang, a rank compiling", Query{Kind: "hang", Reason: "rank compiling: rank 1 compiling `step` while rank 0 waits"}, "dist-rank-compiling", LevelReason},
	{"triage: hang, data loader", Query{Kind: "hang", Reason: "wait outside collectives: rank 0 in data_loader"}, "dist-wait-outside-collectives", LevelReason},
	{"triage: hang, every rank in one collective", Query{Kind: "hang", Reason: "ranks wait: rank 0 in all_reduce · rank 1 in all_reduce"}, "generic-hang", LevelFallback},
	{"triage: env differs", Query{Kind: "config_parity", Reason: "TORCH_LOGS differs: rank 0 'graph_breaks', rank 1 ''"}, "dist-config-parity", LevelReason},
	{"triage: python differs", Query{Kind: "config_parity", Reason: "python executable differs: /usr/bin/python3 vs /opt/py/bin/python3"}, "generic-config_parity", LevelFallback},
	{"triage: no output", Query{Kind: "stall", Reason: "no output for 300s"}, "stall-compile-hang", LevelReason},
	{"triage: compile time", Query{Kind: "stall", Reason: "compile time 1850s for frame forward exceeds the budget"}, "large-model-compile-time", LevelReason},
	{"CUDA OOM (2.11 fixture)", Query{Kind: "runtime_error", ErrorClass: "torch.OutOfMemoryError", Reason: "CUDA out of memory. Tried to allocate 200.00 GiB."}, "gpu-cuda-oom", LevelError},
	{"NCCL error (2.11 fixture)", Query{Kind: "runtime_error", ErrorClass: "torch.distributed.DistBackendError", Reason: "NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93, invalid usage"}, "dist-nccl-error", LevelError},
	{"triage: slower than eager", Query{Kind: "stall", Reason: "compiled step is 3% slower than eager baseline"}, "eager-vs-compiled", LevelReason},
	{"triage: watchdog", Query{Kind: "stall", Reason: "watchdog fired"}, "generic-stall", LevelFallback},
	{"triage: breaks not logged", Query{Kind: "probe_mismatch", Reason: "log shows 0 graph breaks, the process counted 2"}, "probe-fewer-breaks-logged", LevelReason},
	{"triage: recompiles not logged", Query{Kind: "probe_mismatch", Reason: "log shows 0 recompiles, the process counted 3"}, "probe-recompiles-not-logged", LevelReason},
	{"triage: compile failure not logged", Query{Kind: "probe_mismatch", Reason: "the process counted 1 compile failure Dynamo did not turn into a graph break (Failed to trace builtin operator: fullgraph refused it, or the frame ran eager), the log shows none — the program caught it without printing it, or its output was not captured"}, "probe-compile-failure-silent", LevelReason},
	{"triage: logging silenced", Query{Kind: "probe_mismatch", Reason: "the process counted 1 graph break, the log shows none although graph_breaks was on — the program may have silenced torch's logging (logging.disable, its own handlers or levels), or its stderr was not captured"}, "probe-log-silenced", LevelReason},
	{"triage: frames differ", Query{Kind: "probe_mismatch", Reason: "probe saw 2 compiled frames, log shows 1"}, "generic-probe_mismatch", LevelFallback},
	{"triage: cache bypass", Query{Kind: "cache_miss", Reason: "fx_graph cache bypass: Unsupported post grad custom pass"}, "cache-bypass", LevelReason},
	{"triage: freezing knob", Query{Kind: "cache_miss", Reason: "knob TORCHINDUCTOR_FREEZING=1: freezing: the AOTAutograd cache bypasses every start"}, "cache-bypass", LevelReason},
	{"triage: caches disabled", Query{Kind: "cache_miss", Reason: "knob TORCHINDUCTOR_FORCE_DISABLE_CACHES=1: every compile cache is off (FX graph, AOTAutograd, PGO, autotune): every start compiles cold"}, "cache-disabled", LevelReason},
	{"triage: one rank cold", Query{Kind: "cache_miss", Reason: "fx_graph cache miss on some ranks while others hit"}, "cache-dir-not-shared", LevelReason},
	{"triage: key changed", Query{Kind: "cache_miss", Reason: "fx_graph cache hit → miss (key changed: TORCH_COMPILE_CACHE_KEY_TAG)"}, "cache-key-changed", LevelReason},
	{"triage: cache miss", Query{Kind: "cache_miss", Reason: "aot_autograd cache missed"}, "generic-cache_miss", LevelFallback},
	{"triage: autotune knob", Query{Kind: "compile_time", Reason: "knob TORCHINDUCTOR_MAX_AUTOTUNE=1: max-autotune benchmarks kernels at compile time"}, "compile-autotune", LevelReason},
	{"triage: rank skew", Query{Kind: "compile_time", Reason: "compile time differs between ranks"}, "compile-rank-skew", LevelReason},
	{"triage: rank skew, cold rank", Query{Kind: "compile_time", Reason: "compile time differs between ranks; cache miss on the slow rank"}, "cache-dir-not-shared", LevelReason},
	{"triage: compile grew", Query{Kind: "compile_time", Reason: "compile time grew"}, "generic-compile_time", LevelFallback},
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

// explain GBnnnn leads with a playbook that fits the id wherever it shows, not a by-design one that fits only in
// a context (GB0007 led with "Breaks inside DDP's own forward wrapper (by design)", "nothing to fix", while report
// matched the same break in user code to gb-skipped-function).
func TestLookupByGBIDLeadsWithAFix(t *testing.T) {
	s := mustBuiltin(t)
	for _, id := range []string{"GB0007", "GB0156"} {
		p, ok := s.Lookup(id)
		if !ok || p.Expected() {
			t.Errorf("%s: %v %+v", id, ok, p)
		}
	}
}
