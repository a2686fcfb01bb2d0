package triage

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

const diffUsage = `usage: torchtriage diff [--format text|json] [--store DIR] A B

Compares two runs: A and B are log files, directories (torchrun --log-dir trees, TORCH_TRACE dirs) or saved
run directories (.torchtriage/runs/NNNN-preset/, or just the run number NNNN). Lists the graph breaks (by site
and cause), recompile reasons (by function and guard class), recompile-limit hits, CUDA-graph skips and errors
that are new in B, gone from A, or changed in count, per rank.
Exit status: 0 (differences are not an error), 2 usage error or unreadable input.
`

// defaultRunStore is where `torchtriage run` keeps runs (runner.DefaultStoreDir).
const defaultRunStore = ".torchtriage/runs"

// CmdDiff implements `torchtriage diff`.
func CmdDiff(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := newCLI("diff", diffUsage, stderr)
	fs, fail := c.fs, c.fail
	format := fs.String("format", "text", "")
	store := fs.String("store", defaultRunStore, "")
	paths, code, ok := c.parse(args)
	if !ok {
		return code
	}
	if *format != "text" && *format != "json" {
		return fail("unknown --format %q (text or json)", *format)
	}
	if len(paths) != 2 {
		return fail("want two inputs A and B, got %d (see --help)", len(paths))
	}
	if paths[0] == "-" && paths[1] == "-" {
		return fail("only one of A and B can be - (stdin)")
	}
	set := loadPlaybooks("diff", stderr)
	var an [2]*Analysis
	for i, p := range paths {
		p, err := resolveRun(p, *store)
		if err != nil {
			return fail("%v", err)
		}
		rep, warnings, err := BuildReport([]string{p}, stdin)
		for _, w := range warnings {
			fmt.Fprintf(stderr, "torchtriage diff: warning: %s\n", w)
		}
		if err != nil {
			return fail("%v", err)
		}
		an[i] = Analyze(rep, set, readProbes([]string{p}, "diff", stderr))
	}
	res := Diff(an[0], an[1])
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		if err := enc.Encode(struct {
			Schema string   `json:"schema"`
			A      []string `json:"a"`
			B      []string `json:"b"`
			DiffResult
		}{"torchtriage.diff/v1", an[0].Report.Inputs, an[1].Report.Inputs, res}); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	WriteDiffText(stdout, paths[0], paths[1], res)
	return 0
}

// resolveRun maps a bare run number to its directory in the store; other arguments pass unchanged.
func resolveRun(arg, store string) (string, error) {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 {
		return arg, nil
	}
	if _, err := os.Stat(arg); err == nil {
		return arg, nil
	}
	matches, _ := filepath.Glob(filepath.Join(store, fmt.Sprintf("%04d-*", n)))
	if len(matches) == 0 {
		return "", fmt.Errorf("no file %s and no run %d in %s", arg, n, store)
	}
	return matches[0], nil
}

// WriteDiffText prints a diff readably.
func WriteDiffText(w io.Writer, a, b string, res DiffResult) {
	fmt.Fprintf(w, "torchtriage diff · A %s · B %s\n", a, b)
	sign := map[string]string{ChangeNew: "+", ChangeGone: "-", ChangeCount: "~"}
	last := ""
	for _, it := range res.Items {
		if it.Change != last {
			fmt.Fprintf(w, "\n%s\n", map[string]string{ChangeNew: "New in B", ChangeGone: "Gone from A", ChangeCount: "Changed in count"}[it.Change])
			last = it.Change
		}
		fmt.Fprintf(w, "  %s %s: %s", sign[it.Change], kindWord(it.Kind), it.Title)
		switch it.Change {
		case ChangeNew:
			fmt.Fprintf(w, " (×%d)", it.After)
		case ChangeGone:
			fmt.Fprintf(w, " (was ×%d)", it.Before)
		default:
			fmt.Fprintf(w, " (×%d → ×%d)", it.Before, it.After)
		}
		if it.Playbook != "" && it.Change != ChangeGone {
			fmt.Fprintf(w, " · playbook %s", it.Playbook)
		}
		fmt.Fprintln(w)
		if rc := rankChangeText(it.Ranks); rc != "" {
			fmt.Fprintf(w, "      %s\n", rc)
		}
	}
	if len(res.Items) == 0 {
		fmt.Fprintln(w, "\nNo difference in graph breaks, recompile reasons, limit hits, CUDA-graph skips or errors.")
	}
	fmt.Fprintf(w, "\n%d new, %d gone, %d changed in count, %d unchanged\n", res.New, res.Gone, res.Changed, res.Unchanged)
}

// rankChangeText words per-rank changes: "new on rank 1; ranks 2–7: 1→2" (nothing for a process without rank).
func rankChangeText(rcs []RankChange) string {
	var parts []string
	for _, c := range rcs {
		if len(c.Ranks) == 0 {
			continue
		}
		switch {
		case c.Before == 0:
			parts = append(parts, "new on "+rankWord(c.Ranks))
		case c.After == 0:
			parts = append(parts, "gone from "+rankWord(c.Ranks))
		default:
			parts = append(parts, fmt.Sprintf("%s: %d→%d", rankWord(c.Ranks), c.Before, c.After))
		}
	}
	return strings.Join(capList(parts, 6), "; ")
}
