package tui

import (
	"strings"
	"testing"
)

// The one-line flash was cut at 80 columns: a run of an earlier session marked for a diff read "run 1 is from an
// earlier session: torchtriage diff … B c…", its instruction lost. A flash wraps onto a second status line now
// (the body gives up a line), and the screen keeps its height.
func TestAFlashIsWholeAt80Columns(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 32}} {
		m := storyModel(t, size[0], size[1], bringupStore(t))
		openRuns(t, m)
		press(m, "G", "space") // run 1, the oldest: only in the store; marking it for a diff: the command that diffs it
		s := plain(m)
		lines := strings.Split(s, "\n")
		if len(lines) != size[1] {
			t.Fatalf("%v: %d lines", size, len(lines))
		}
		r := m.runRows()[len(m.runRows())-1]
		if r.view != nil || m.flash == "" {
			t.Fatalf("%v: run %d should be an earlier session's, flash %q", size, r.id, m.flash)
		}
		if !strings.Contains(squeeze(s), squeeze("torchtriage diff "+r.dir()+" B compares it with B")) {
			t.Errorf("%v: the diff flash %q is not whole:\n%s", size, m.flash, s)
		}
		if !strings.Contains(lines[len(lines)-1], "help") {
			t.Errorf("%v: the footer should stay the last line:\n%s", size, s)
		}
	}
}

// A message longer than the status area's two lines keeps its height: the second line ends in "…".
func TestAMessageTakesTwoLinesAtMost(t *testing.T) {
	m := openModel(t, 80, 24, "gb_recompile.triage.log")
	m.flash = strings.Repeat("a long warning about the files read ", 10)
	m.layout()
	s := plain(m)
	lines := strings.Split(s, "\n")
	if len(lines) != 24 || !strings.HasPrefix(lines[21], " a long") || !strings.HasPrefix(lines[22], "   ") ||
		!strings.HasSuffix(strings.TrimRight(lines[22], " "), "…") || !strings.Contains(lines[23], "help") {
		t.Errorf("%d lines:\n%s", len(lines), s)
	}
}
