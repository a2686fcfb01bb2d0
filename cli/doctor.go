package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// doctorSchema names the JSON document of `torchtriage doctor --format json`.
const doctorSchema = "torchtriage.doctor/v1"

// status is a check's outcome: ok ✓, warn ⚠ (works, but worth knowing), fail ✗ (fix it first).
type status string

const (
	statusOK   status = "ok"
	statusWarn status = "warn"
	statusFail status = "fail"
)

var glyphs = map[status]string{
	statusOK:   lipgloss.NewStyle().Foreground(lipgloss.Green).Render("✓"),
	statusWarn: lipgloss.NewStyle().Foreground(lipgloss.Yellow).Render("⚠"),
	statusFail: lipgloss.NewStyle().Foreground(lipgloss.Red).Render("✗"),
}

// check is one line of doctor: what was looked at, what was found and, unless all is well, what to do.
type check struct {
	ID     string `json:"id"`
	Status status `json:"status"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// doctorDoc is the JSON document.
type doctorDoc struct {
	Schema  string         `json:"schema"`
	Version string         `json:"torchtriage"`
	OS      string         `json:"os"`
	Arch    string         `json:"arch"`
	Facts   doctorFacts    `json:"facts"`
	Checks  []check        `json:"checks"`
	Counts  map[status]int `json:"counts"`
}

func newDoctorCmd() *cobra.Command {
	var (
		format, python, store string
		timeout               time.Duration
	)
	cmd := &cobra.Command{
		Use:   "doctor [flags]",
		Short: "Check this box in one screen: python, torch, GPU, launchers, TORCH_LOGS names, caches, knobs, terminal",
		Long: "The first five minutes on a new box. Runs the python that `torchtriage run` would use once (a small " +
			"script; no GPU needed) and reports its torch (version, CUDA build, whether it sees a GPU), torchrun and " +
			"srun, which TORCH_LOGS names this torch accepts (and the preset names it would reject), the compile cache " +
			"directories, the regression-prone compile knobs that are set, the terminal, and where runs are stored. " +
			"Each line is ✓, ⚠ or ✗ with the fix. Exit status 0 when nothing is ✗, 1 otherwise.",
		Example: "  torchtriage doctor\n  torchtriage doctor --python .venv/bin/python --format json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if timeout <= 0 {
				timeout = 2 * time.Minute
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			f := gatherDoctor(ctx, python, store, cmd.OutOrStdout())
			doc := doctorDoc{Schema: doctorSchema, Version: Version, OS: runtime.GOOS, Arch: runtime.GOARCH,
				Facts: f, Checks: doctorChecks(f), Counts: map[status]int{statusOK: 0, statusWarn: 0, statusFail: 0}}
			for _, c := range doc.Checks {
				doc.Counts[c.Status]++
			}
			if format == "json" {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				if err := enc.Encode(doc); err != nil {
					return err
				}
			} else {
				renderDoctor(cmd.OutOrStdout(), doc)
			}
			if doc.Counts[statusFail] > 0 {
				return exitCode(exitFail)
			}
			return nil
		},
	}
	formatFlag(cmd, &format, "text", "json")
	cmd.Flags().StringVar(&python, "python", "", "the interpreter to examine (default: python3 on PATH, as run uses)")
	cmd.Flags().StringVar(&store, "store", "", "run store directory (default "+runs.DefaultStoreDir+")")
	durationFlag(cmd.Flags(), &timeout, "timeout", "give up on the python script after this long (default 2m)")
	_ = cmd.MarkFlagFilename("python")
	_ = cmd.MarkFlagDirname("store")
	return cmd
}

// findPython is the interpreter doctor asks: --python (a name on PATH or a path), else python3, else python.
func findPython(flag string) (string, error) {
	if flag != "" {
		return exec.LookPath(flag)
	}
	for _, name := range []string{"python3", "python"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no python3 or python on PATH")
}

// askPython runs the probe's doctor script once.
func askPython(ctx context.Context, flag string) (string, *probe.Facts, error) {
	py, err := findPython(flag)
	if err != nil {
		if flag == "" {
			return "python3", nil, err
		}
		return flag, nil, err
	}
	facts, err := probe.Doctor(ctx, py, nil)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return py, nil, fmt.Errorf("%s did not finish in time (did `import torch` hang?)", py)
	}
	if err != nil {
		return py, nil, err
	}
	return py, &facts, nil
}

// renderDoctor prints one line per check, its fix below it, and the counts.
func renderDoctor(w io.Writer, doc doctorDoc) {
	width := 0
	for _, c := range doc.Checks {
		width = max(width, len(c.Title))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "torchtriage doctor · torchtriage %s · %s/%s\n", doc.Version, doc.OS, doc.Arch)
	for _, c := range doc.Checks {
		fmt.Fprintf(&b, "%s %-*s  %s\n", glyphs[c.Status], width, c.Title, c.Detail)
		if c.Fix != "" {
			fmt.Fprintf(&b, "  %*s  → %s\n", width, "", c.Fix)
		}
	}
	fmt.Fprintf(&b, "%d ✓ · %d ⚠ · %d ✗\n", doc.Counts[statusOK], doc.Counts[statusWarn], doc.Counts[statusFail])
	_, _ = lipgloss.Fprint(w, b.String())
}
