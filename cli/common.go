package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// warn prints "torchtriage CMD: warning: …".
func warn(cmd *cobra.Command, format string, a ...any) {
	fmt.Fprintf(cmd.ErrOrStderr(), "%s: warning: %s\n", cmd.CommandPath(), fmt.Sprintf(format, a...))
}

// loadPlaybooks loads the built-in and user playbooks; a malformed user file is a warning (the rest load).
func loadPlaybooks(cmd *cobra.Command, userDir string) *playbooks.Set {
	set, errs := playbooks.Load(userDir)
	for _, err := range errs {
		warn(cmd, "playbook %v", err)
	}
	return set
}

// readProbes reads the probe files of every input that is a run directory; unreadable ones are warnings.
func readProbes(cmd *cobra.Command, paths []string) []report.ProcessInfo {
	var out []report.ProcessInfo
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			continue
		}
		infos, errs := session.ReadProbes(p)
		for _, err := range errs {
			warn(cmd, "%v", err)
		}
		out = append(out, infos...)
	}
	return out
}

// runMetas reads each run directory's meta.json once for a command (runs.Metas), and hands the same Meta to
// every step that asks: runPaths' one-run store, refuseStores, load's interrupted warning, runFacts. The zero
// runMetas reads it at each ask (the commands that keep the package functions below).
type runMetas struct{ runs.Metas }

// load reads paths into a report, printing the warnings; an unreadable input is a usage error (exit 2). It
// returns the paths less those that named the same file or directory as one before them (read once).
func load(cmd *cobra.Command, paths []string, stdin io.Reader) (*report.Report, []string, error) {
	return runMetas{}.load(cmd, paths, stdin)
}

// load is load with the run directories' meta.json read once (runMetas).
func (ms runMetas) load(cmd *cobra.Command, paths []string, stdin io.Reader) (*report.Report, []string, error) {
	if err := ms.refuseStores(cmd, paths); err != nil {
		return nil, paths, err
	}
	l, err := report.Load(paths, report.LoadOptions{Stdin: stdin})
	if l != nil {
		paths = l.Paths
	}
	for _, p := range paths {
		if m, err := ms.Load(p); err == nil && m.State == runs.StateInterrupted {
			warn(cmd, "run %s was interrupted: the tool supervising it is gone (killed, out of disk or hung up); its logs end where it stopped", m.Name)
		}
	}
	if l != nil {
		for _, w := range l.Warnings {
			warn(cmd, "%s", w)
		}
		if len(l.ReadOnce) > 0 {
			fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", cmd.CommandPath(), report.AliasesText(l.ReadOnce))
		}
		if len(l.Skipped) > 0 { // a FIFO would block, a device never ends: said, never silent
			fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", cmd.CommandPath(), render.SkippedText(l.Skipped))
		}
	}
	if errors.Is(err, logparse.ErrDevice) { // every command that loads reads a pipe too
		return nil, paths, failErr(cmd, exitUsage, "%v (give - to read standard input)", err)
	}
	if err != nil {
		return nil, paths, failErr(cmd, exitUsage, "%v", err)
	}
	return l.Report, paths, nil
}

// findRun is the run directory RUN names (runs.FindRun); a run that is not there is exit 2, like any input that
// cannot be read.
func findRun(cmd *cobra.Command, arg, store string) (string, error) {
	dir, err := runs.FindRun(arg, store)
	if err != nil {
		return "", failErr(cmd, exitUsage, "%v", err)
	}
	return dir, nil
}

// runPaths maps the bare run numbers among paths to their run directories in store (runs.Resolve; "-" passes), as
// every command that reads runs takes them: `report 3` is `report .torchtriage/runs/0003-…`.
func runPaths(cmd *cobra.Command, paths []string, store string) ([]string, error) {
	return runMetas{}.runPaths(cmd, paths, store)
}

// runPaths is runPaths with the run directories' meta.json read once (runMetas).
func (ms runMetas) runPaths(cmd *cobra.Command, paths []string, store string) ([]string, error) {
	out := make([]string, len(paths))
	for i, p := range paths {
		if p == "-" {
			out[i] = p
			continue
		}
		dir, err := runs.Resolve(p, store)
		if err != nil {
			return nil, failErr(cmd, exitUsage, "%v", err)
		}
		if one := ms.OneRunOf(dir); one != "" { // read as plain logs, its meta.json and probe would be lost
			fmt.Fprintf(cmd.ErrOrStderr(), "%s: reading %s: the run store's one run\n", cmd.CommandPath(), one)
			dir = one
		}
		out[i] = dir
	}
	return out, nil
}

// storeFlag adds --store: the run store that run numbers refer to.
func storeFlag(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "store", "", "run store that run numbers refer to (default .torchtriage/runs)")
	_ = cmd.MarkFlagDirname("store")
}

// runFacts are the run facts of a single run directory (what its meta.json says); nil for anything else.
func runFacts(paths []string) *report.RunFacts {
	if len(paths) != 1 {
		return nil
	}
	return session.RunFactsOfDir(paths[0])
}

// runFacts is runFacts of the meta.json already read (runMetas).
func (ms runMetas) runFacts(paths []string) *report.RunFacts {
	if len(paths) != 1 {
		return nil
	}
	m, err := ms.Load(paths[0])
	if err != nil {
		return nil
	}
	return session.RunFactsOf(m)
}

// distinctDirs is paths without the ones that name a directory named before (the same run by number and path).
func distinctDirs(paths []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		key := p
		if abs, err := filepath.Abs(p); err == nil {
			key = abs
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	return out
}

// refuseStores refuses a run store named as an input: its runs' logs (other commands, other times, each with its
// own rank 0) would count as one report. One line says how to read one, all, or two side by side.
func refuseStores(cmd *cobra.Command, paths []string) error {
	return runMetas{}.refuseStores(cmd, paths)
}

// refuseStores is refuseStores with the run directories' meta.json read once (runMetas).
func (ms runMetas) refuseStores(cmd *cobra.Command, paths []string) error {
	const how = "name one run (torchtriage %s %s); torchtriage log shows them all, torchtriage diff A B compares two"
	var named []string // run directories named one by one
	for _, p := range paths {
		if _, err := ms.Load(p); err == nil {
			named = append(named, p)
			continue
		}
		nruns, last := ms.StoreRuns(p) // 0 of what is no directory (or unreadable: the load says so)
		if nruns > 1 {
			return failErr(cmd, exitUsage, "%s is a run store (%d runs): "+how, p, nruns, cmd.Name(), last)
		}
	}
	if len(named) > 1 {
		if distinct := distinctDirs(named); len(distinct) == 1 { // one run named twice: not two runs
			return failErr(cmd, exitUsage, "%s is named %d times: name it once (torchtriage %s %s)", distinct[0], len(named), cmd.Name(), distinct[0])
		}
		return failErr(cmd, exitUsage, "%s are %d runs: "+how, strings.Join(named, ", "), len(named), cmd.Name(), named[len(named)-1])
	}
	return nil
}
