package doctor

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

	"github.com/torchtriage/torchtriage/triage/probe"
)

// schema names the JSON document of `torchtriage doctor --format json`.
const schema = "torchtriage.doctor/v1"

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

// document is the JSON document.
type document struct {
	Schema  string         `json:"schema"`
	Version string         `json:"torchtriage"`
	OS      string         `json:"os"`
	Arch    string         `json:"arch"`
	Facts   facts          `json:"facts"`
	Checks  []check        `json:"checks"`
	Counts  map[status]int `json:"counts"`
}

// Options are what the doctor command was given.
type Options struct {
	Python  string        // the interpreter to examine: a name on PATH or a path ("" = python3, else python, on PATH)
	Store   string        // the run store ("" = session.DefaultStoreDir)
	Timeout time.Duration // give up on the python script after this long (0 or less = 2 minutes)
	Format  string        // "json" for the JSON document, anything else for the screen
	Version string        // torchtriage's version, as the header and the document name it
}

// Run examines this box as o says, writes the screen or the JSON document to w (stdout: whether it is a terminal
// is part of what doctor reports) and returns how many checks failed (✗). The error is only w's.
func Run(ctx context.Context, w io.Writer, o Options) (failed int, err error) {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	f := gather(ctx, o.Python, o.Store, w)
	doc := document{Schema: schema, Version: o.Version, OS: runtime.GOOS, Arch: runtime.GOARCH,
		Facts: f, Checks: checksOf(f), Counts: map[status]int{statusOK: 0, statusWarn: 0, statusFail: 0}}
	for _, c := range doc.Checks {
		doc.Counts[c.Status]++
	}
	if o.Format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return doc.Counts[statusFail], err
		}
	} else {
		render(w, doc)
	}
	return doc.Counts[statusFail], nil
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

// render prints one line per check, its fix below it, and the counts.
func render(w io.Writer, doc document) {
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
