package logparse

// pasteSeeds are the pasted shapes of docs pasted-logs.md, seeds for the fuzz targets.
var pasteSeeds = []string{
	"> [rank0]:V1121 07:46:14.314000 32308 torch/_dynamo/guards.py:2791] [0/1] [__recompiles] Recompiling function f in /w/r.py:2\n" +
		"> [rank0]:V1121 07:46:14.314000 32308 torch/_dynamo/guards.py:2791] [0/1] [__recompiles]     triggered by the following guard failure(s):\n" +
		"> [rank0]:V1121 07:46:14.314000 32308 torch/_dynamo/guards.py:2791] [0/1] [__recompiles]     - 0/0: tensor 'x' size mismatch at index 0. expected 4, actual 8\n",
	"2024-05-01T10:00:00.123456789Z stderr F [rank1]:[rank1]:V1121 07:46:03.971000 1 .../torch/_dynamo/symbolic_convert.py:435] [0/0] [__graph_breaks] Graph break in user code at /w/r.py:4\n" +
		"2024-05-01T10:00:00.123456790Z stderr F [rank1]:[rank1]:V1121 07:46:03.971000 1 .../torch/_dynamo/symbolic_convert.py:435] [0/0] [__graph_breaks] Reason: Data-dependent jump\n",
	"[40/0] [__graph_breaks] Graph Break Reason: Encountered graph break when attempting to trace CALL\n[40/0] [__graph_breaks] \n" +
		"[40/0] [__graph_breaks] Failed to trace builtin operator\n[40/0] [__graph_breaks] User code traceback:\n" +
		"[40/0] [__graph_breaks]   File \"/w/r.py\", line 10, in f\n[__cudagraphs] [0/0] Re-recording function=partition_0, reason=x\n",
	"    Traceback (most recent call last):\n      File \"/w/r.py\", line 8, in <module>\n        f(x)\n" +
		"    torch._dynamo.exc.Unsupported: Call to `torch._dynamo.graph_break()`\n",
	"[rank3]: torch._dynamo.exc.Unsupported: Attempted to call function marked as skipped\n" +
		"torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: boom\n\n" +
		"The above exception was the direct cause of the following exception:\n\ntorch._dynamo.exc.FailOnRecompileLimitHit: x\n",
	"-----\n\x1b[0;31mUnsupported                               \x1b[0mTraceback (most recent call last)\nCell In[4], line 7\n" +
		"----> 7 out = model(x)\n\nFile /t/eval_frame.py:12, in f(*args)\n-> 12     raise e\n\nUnsupported: Call to x\n",
	"/w/test_x.py:12: in test_a\n    f(x)\nE   torch._dynamo.exc.TorchRuntimeError: bad\nE     more\n\n/w/test_x.py:12: TorchRuntimeError\n" +
		"____ test_b ____\nE   RuntimeError: boom\n",
	"  - 0/3: tensor 'x' size mismatch at index 0. expected 4, actual 8\nRecompiling function forw",
	// logging.exception, then torch goes on (testdata/realtorch/r23_caught_logged.triage.log, shortened)
	"ERROR:root:step 4 diverged, skipping the batch\nTraceback (most recent call last):\n  File \"/w/r.py\", line 34, in <module>\n" +
		"    step(x)\nRuntimeError: loss diverged\n" +
		"V1123 06:46:56.026000 30841 torch/_dynamo/guards.py:5621] [1/2] [__recompiles] Recompiling function step in /w/r.py:16\n",
	// IPython's last line without its header: the class without its module
	"InductorError: CompilationError: at 3:25:\narange's range must be a power of 2\n\nBackendCompilerFailed: backend='inductor' raised:\nRuntimeError: x\n",
	// a pod name in front of every line of a chained traceback, blank lines trimmed to the name
	"trainer-0 Traceback (most recent call last):\ntrainer-0   File \"/w/r.py\", line 8, in <module>\ntrainer-0     f(x)\n" +
		"trainer-0 ValueError: a\ntrainer-0\ntrainer-0 The above exception was the direct cause of the following exception:\n" +
		"trainer-0\ntrainer-0 Traceback (most recent call last):\ntrainer-0   File \"/w/r.py\", line 9, in <module>\ntrainer-0 RuntimeError: b\n",
	"torchdynamo hit recompilation cache limit (64) for function 'forward'\n" +
		"Graph break: call_function BuiltinVariable(iadd) [...] from user code at   File \"x.py\", line 232, in forward\n",
}
