package cli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// triagetest.ReportPaths and Render, which the analysis tests of triage, render and ranks read in place of this
// command, make what `report` prints, byte for byte: every recorded run directory (its meta.json's facts, its
// probe files), a store of one run, plain logs, and a run with a log, in text, Markdown and JSON.
func TestTriagetestReportIsTheCommands(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "recorded", "*", "runs", "*"))
	if err != nil || len(dirs) < 30 {
		t.Fatalf("recorded run dirs: %d %v", len(dirs), err)
	}
	inputs := [][]string{
		{filepath.Join("..", "testdata", "recorded", "caught-compile", "runs")}, // the store's one run
		{fx("torch-2.14/gb_recompile.triage.log")},
		{fx("torch-2.14/gb_recompile.triage.log"), fx("torch-2.14/gb_recompile.triage.log")}, // read once
		{dirs[0], fx("torch-2.14/gb_recompile.triage.log")},                                  // a run and a log: probes, no run facts
	}
	for _, d := range dirs {
		inputs = append(inputs, []string{d})
	}
	for _, paths := range inputs {
		an := triagetest.ReportPaths(t, paths...)
		for _, f := range []struct {
			format string
			width  int
		}{{"text", 100}, {"text", 300}, {"markdown", 80}, {"json", 80}} {
			args := append([]string{"report", "--format", f.format, "--width", strconv.Itoa(f.width)}, paths...)
			code, out, errb := runCLI(args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errb)
			}
			if got := triagetest.Render(t, an, f.format, f.width); got != out {
				t.Errorf("%v: triagetest's rendering differs from the command's stdout\n--- command\n%s\n--- triagetest\n%s", args, out, got)
			}
		}
	}
}

// triagetest.CheckPaths makes what `check` prints on stdout and its exit status, and its stderr holds the gate's
// lines, on every recorded run directory, with a rank rule and count rules, in text and JSON.
func TestTriagetestCheckIsTheCommands(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "recorded", "*", "runs", "*"))
	if err != nil || len(dirs) < 30 {
		t.Fatalf("recorded run dirs: %d %v", len(dirs), err)
	}
	inputs := [][]string{{fx("torch-2.14/gb_recompile.triage.log")}}
	for _, d := range dirs {
		inputs = append(inputs, []string{d})
	}
	for _, paths := range inputs {
		for _, c := range []struct {
			flags []string
			rules gate.Options
		}{
			{[]string{"--ranks-agree"}, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}},
			{[]string{"--max-graph-breaks", "0", "--no-compile-errors"}, gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1, NoCompileErrors: true}},
			{[]string{"--max-recompiles", "1", "--no-limit-hits"}, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: 1, NoLimitHits: true}},
		} {
			for _, format := range []string{"text", "json"} {
				args := append(append([]string{"check", "--format", format}, c.flags...), paths...)
				code, out, errb := runCLI(args...)
				res, got, gotErr := triagetest.CheckPaths(t, gate.RunOptions{Rules: c.rules, Format: format}, paths...)
				if code != res.Exit || got != out || !strings.Contains(errb, gotErr) {
					t.Errorf("%v: exit %d, triagetest %d\n--- command\n%s%s\n--- triagetest\n%s%s", args, code, res.Exit, out, errb, got, gotErr)
				}
			}
		}
	}
}

// triagetest.Diff and Compare make what `diff` and `compare` print, byte for byte: recorded runs side by side
// (runs of the same command and of different ones), a run beside a log, and two logs, in text and JSON.
func TestTriagetestDiffAndCompareAreTheCommands(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "recorded", "*", "runs", "*"))
	if err != nil || len(dirs) < 30 {
		t.Fatalf("recorded run dirs: %d %v", len(dirs), err)
	}
	pairs := [][2]string{
		{fx("torch-2.14/gb_recompile.triage.log"), fx("torch-2.6/r12_limit_str.triage.log")},
		{fx("torch-2.14/gb_recompile.triage.log"), dirs[0]},
		{filepath.Join("..", "testdata", "compile", "runs-2.14", "0001-trace"), filepath.Join("..", "testdata", "compile", "runs-2.14", "0002-trace")},
	}
	for i := 1; i < len(dirs); i++ {
		pairs = append(pairs, [2]string{dirs[i-1], dirs[i]})
	}
	for _, p := range pairs {
		for _, format := range []string{"text", "json"} {
			_, out, errb := runCLI("diff", "--format", format, "--width", "120", p[0], p[1])
			if got := triagetest.Diff(t, format, 120, p[0], p[1]); got != out {
				t.Errorf("diff %s %v: triagetest's differs from the command's stdout\n--- command\n%s%s\n--- triagetest\n%s", format, p, out, errb, got)
			}
			_, out, errb = runCLI("compare", "--format", format, p[0], p[1])
			if got := triagetest.Compare(t, format, p[0], p[1]); got != out {
				t.Errorf("compare %s %v: triagetest's differs from the command's stdout\n--- command\n%s%s\n--- triagetest\n%s", format, p, out, errb, got)
			}
		}
	}
}
