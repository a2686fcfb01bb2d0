// Package logparse turns the bytes PyTorch prints (TORCH_LOGS text in every
// format from 2.0 to 2.14, torchrun/srun rank prefixes, Python tracebacks and
// TORCH_TRACE structured files) into typed records: graph breaks, recompiles,
// recompile-limit hits, CUDA-graph skips, compile errors and everything else.
// It streams, never panics on bad input, and knows nothing of what the
// records mean for the user; that is the triage package's job. TORCH_TRACE
// files are read by logparse/trace, which sits above it: ParseInputs reads a
// trace input through the reader its caller gives (Sink.Trace).
package logparse
