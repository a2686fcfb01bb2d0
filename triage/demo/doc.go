// Package demo is a built-in "repro" that needs no torch: it replays real
// output recorded from PyTorch 2.14.1 (recordings/, copied unchanged from the
// project's fixtures) with its original timing, so `torchtriage demo` shows
// the whole flow on any machine. main.go routes the hidden subcommand
// `torchtriage __demo-repro [--scenario NAME]` to ReproMain, and the tool runs
// it like any repro: the recording is chosen by the TORCH_LOGS,
// TORCHDYNAMO_DISABLE and TORCH_TRACE the tool sets.
//
// The recordings merged stdout and stderr (2>&1); the replay splits them
// again: lines with a glog or C++ log prefix go to stderr, all other lines
// (the user's prints) to stdout.
package demo
