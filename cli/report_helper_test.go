package cli

import (
	"path/filepath"
	"strconv"
	"testing"

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
