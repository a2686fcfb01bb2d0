// Command torchtriage finds out why torch.compile got slower or broke: it reads what PyTorch prints (graph
// breaks, recompiles, limit hits, CUDA-graph skips, compile errors), per rank. The command line is package cli.
package main

import (
	"os"

	"github.com/torchtriage/torchtriage/cli"
	"github.com/torchtriage/torchtriage/triage/session"
	"github.com/torchtriage/torchtriage/tui"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	session.MaybeRunReaper()             // when started as the reaper of a repro, this never returns
	_, oneShot := gcBudget(192<<20, 1.5) // process-wide tuning lives here (gc.go) and nowhere else
	cli.OneShot = oneShot
	tui.LiveGC = liveGC
	stop := startProfiles()
	cli.Version = version
	code := cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
