package triage_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Folding recompiles on the lane's goroutine changes no report: every text fixture, trace dir and recorded run
// reads the same, byte for byte in JSON, with the lane as without it (Add folding everything in order). Nor does
// finding a remembered break text's summary by its SameBreak id (sameBreakCache) instead of by its key.
func TestFoldAsideChangesNoReport(t *testing.T) {
	var paths []string
	for _, pat := range []string{"torch-*/*.log", "torch-*/*.trace", "failures/*.log", "../recorded/*/runs/*", "../recorded/*/*.log",
		"../gpu-e2e/e2e-20261127/*"} {
		m, _ := filepath.Glob(filepath.Join(triage.Fixtures, pat))
		paths = append(paths, m...)
	}
	paths = append(paths, filepath.Join(triage.Fixtures, "torch-2.14"), manyRecompiles(t)) // many inputs at once; many full batches
	t.Logf("%d inputs", len(paths))
	if len(paths) < 50 {
		t.Fatalf("only %d inputs found", len(paths))
	}
	rpt := func(p string) []byte {
		l, err := report.Load([]string{p}, report.LoadOptions{})
		if err != nil {
			return []byte("error: " + err.Error())
		}
		var b bytes.Buffer
		if err := render.WriteReport(&b, triage.Analyze(l.Report, nil, nil), "json", text.Options{}); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	defer func() { report.FoldAside, report.SameBreakCache = true, true }()
	for _, p := range paths {
		report.FoldAside, report.SameBreakCache = true, true
		aside := rpt(p)
		report.FoldAside = false
		if inAdd := rpt(p); !bytes.Equal(aside, inAdd) {
			t.Errorf("%s: the report differs with the recompiles folded aside", p)
		}
		report.FoldAside, report.SameBreakCache = true, false
		if byKey := rpt(p); !bytes.Equal(aside, byKey) {
			t.Errorf("%s: the report differs with breaks found by their SameBreak id", p)
		}
	}
}

// manyRecompiles writes a log of 4 ranks with 3,000 recompile records of 300 functions (each with its own compile
// ids and guard values) among graph breaks, from gb_recompile's real records as bench/many.sh makes its file: the
// lane then folds many full batches while Add goes on.
func manyRecompiles(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join(triage.Fixtures, "torch-2.14", "gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	brk, rc := lines[0:23], lines[113:123]
	var out strings.Builder
	for r := range 4 {
		for j := range 750 {
			f, c := j%300, j/300+2
			for _, l := range rc {
				l = strings.Replace(l, "[0/2]", fmt.Sprintf("[%d/%d]", f, c), 1)
				l = strings.Replace(l, "function f in", fmt.Sprintf("function f%d in", f), 1)
				l = strings.Replace(l, "- 0/1: scale == 2.0", fmt.Sprintf("- %d/%d: scale == %d.5", f, c-1, c*8+r), 1)
				fmt.Fprintf(&out, "[rank%d]:%s\n", r, l)
			}
			if j%50 == 0 {
				for _, l := range brk {
					fmt.Fprintf(&out, "[rank%d]:%s\n", r, strings.Replace(l, ".py:12", fmt.Sprintf(".py:%d", 12+j/50), 1))
				}
			}
		}
	}
	p := filepath.Join(t.TempDir(), "many.log")
	if err := os.WriteFile(p, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if l, err := report.Load([]string{p}, report.LoadOptions{}); err != nil || l.Report.Counts.Recompiles != 3000 || l.Report.Counts.GraphBreaks != 15 {
		t.Fatalf("the many-recompiles log: %v %+v", err, l.Report.Counts)
	}
	return p
}
