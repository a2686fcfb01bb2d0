// Command torchtriage finds out why torch.compile got slower or broke: it reads what PyTorch prints
// (graph breaks, recompiles, limit hits, CUDA-graph skips, compile errors), per rank.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/demo"
	"github.com/torchtriage/torchtriage/triage/runner"
	"github.com/torchtriage/torchtriage/tui"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]command{
	"run":       {"launch your repro with a TORCH_LOGS preset and triage it live (the TUI)", tui.CmdRun},
	"demo":      {"the TUI on a built-in recording of real PyTorch output (no torch needed)", tui.CmdDemo},
	"open":      {"the TUI on existing logs, run dirs or TORCH_TRACE dirs (no relaunch)", tui.CmdOpen},
	"report":    {"print graph breaks, recompiles, limit hits, skips and errors of logs", triage.CmdReport},
	"check":     {"gate logs or a repro: exit 1 when breaks, recompiles, limit hits or rank disagreement exceed the rules", triage.CmdCheck},
	"diff":      {"compare two logs, directories or saved runs: what is new, gone or changed, per rank", triage.CmdDiff},
	"log":       {"the bringup log of this session: every run, what changed, what it fixed or broke", triage.CmdLog},
	"note":      {"attach a one-line note to a run: torchtriage note RUN \"switched to funcol\"", triage.CmdNote},
	"playbooks": {"list or fuzzy-search the built-in and your own playbooks", noStdin(playbooks.CmdPlaybooks)},
	"explain":   {"print one playbook (by id or GB id, e.g. GB0059)", noStdin(playbooks.CmdExplain)},
	"presets":   {"list the TORCH_LOGS presets", noStdin(runner.CmdPresets)},
	"bundle":    {"pack a run into a tar.gz repro pack for an upstream bug report", noStdin(runner.CmdBundle)},
	"version":   {"print the version", cmdVersion},
	// hidden: the built-in demo repro that `torchtriage demo` launches
	"__demo-repro": {"", func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return demo.ReproMain(args, stdout, stderr, nil)
	}},
}

func noStdin(f func(args []string, stdout, stderr io.Writer) int) func([]string, io.Reader, io.Writer, io.Writer) int {
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return f(args, stdout, stderr) }
}

func main() {
	runner.MaybeRunReaper() // when started as the reaper of a repro, this never returns
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return 0
	}
	if args[0] == "--version" {
		args[0] = "version"
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "torchtriage: unknown command %q (see torchtriage --help)\n", args[0])
		return 2
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, "torchtriage: why did torch.compile get slower or break?\n\nusage: torchtriage COMMAND [flags] [args]\n\ncommands:\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		if n[0] != '_' {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(w, "\nRun torchtriage COMMAND --help for a command's flags.\n")
}

func cmdVersion(args []string, _ io.Reader, stdout, _ io.Writer) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprintln(stdout, "usage: torchtriage version\n\nPrints the torchtriage version.")
		return 0
	}
	fmt.Fprintf(stdout, "torchtriage %s\n", version)
	return 0
}
