// Command torchtriage finds out why torch.compile got slower or broke: it reads what PyTorch prints (graph
// breaks, recompiles, limit hits, CUDA-graph skips, compile errors), per rank. The command line is package cli.
package main

import (
	"os"
	"runtime/debug"

	"github.com/torchtriage/torchtriage/cli"
	"github.com/torchtriage/torchtriage/triage/runner"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	runner.MaybeRunReaper() // when started as the reaper of a repro, this never returns
	// Process-wide tuning lives here and nowhere else: most commands are short-lived with a small live heap
	// (report holds counts, not records); collect less often, but never let the heap pass a fixed budget.
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(192 << 20)
	stop := startProfiles()
	cli.Version = version
	code := cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
