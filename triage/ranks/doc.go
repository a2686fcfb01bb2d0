// Package ranks decides rank agreement: whether the ranks of a torchrun job compiled alike (the same breaks,
// recompiles and compiles per rank, from the logs, the probe's compile states and TORCH_TRACE), which ranks
// diverge first and where, what a cut or partial input leaves unjudged, and the rank findings that follow
// (ranks compile differently, config parity). Ranks that compile differently deadlock; this is where the tool
// says so.
package ranks
