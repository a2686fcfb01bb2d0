// Command torchtriage finds out why torch.compile got slower or broke: it reads what PyTorch prints
// (graph breaks, recompiles, limit hits, CUDA-graph skips, compile errors), per rank.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/torchtriage/torchtriage/triage"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]command{
	"report":  {"print graph breaks, recompiles, limit hits, skips and errors of logs", triage.CmdReport},
	"version": {"print the version", cmdVersion},
}

func main() {
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
