package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// squeeze is s without its spaces and box sides: text wrapped onto several lines reads the same as on one.
func squeeze(s string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("┃", " ", "│", " ").Replace(s)), "")
}

// The open line's verdict and the "First failure:" line were cut with "…" at 80 columns ("verdict: not steady: 1
// process crashed, 1 process died of its peer'…"; at 120 the peer-abort failure lost its file and line): they wrap
// now, taking lines from the lists, and each reads whole above them at 80×24 and 120×32.
func TestMainScreenVerdictAndFirstFailureAreWhole(t *testing.T) {
	for _, in := range []string{
		"../../testdata/recorded/peer-abort/runs/0001-breaks",
		"../../testdata/recorded/stopped-dist-hang/runs/0002-breaks",
		"../../testdata/recorded/train-loop/runs/0004-recompiles",
		"../../testdata/recorded/dynamic-false/dynauto-214.log",
		"../../testdata/recorded/ddp-compile/runs/0011-distributed",
		"../../testdata/recorded/compile-off/runs/0001-breaks",
		"../../testdata/recorded/lagging-rank/runs/0001-breaks",
	} {
		for _, size := range [][2]int{{80, 24}, {120, 32}} {
			m := openModel(t, size[0], size[1], in)
			v := m.cur.snap.analysis.Verdict
			s := plain(m)
			lines := strings.Split(s, "\n")
			if len(lines) != size[1] {
				t.Fatalf("%s at %v: %d lines", in, size, len(lines))
			}
			var top string // the lines above the lists
			for _, l := range lines[1:] {
				if strings.HasPrefix(l, "┏") || strings.HasPrefix(l, "┌") {
					break
				}
				top += l + "\n"
			}
			if strings.Contains(top, "…") {
				t.Errorf("%s at %v: a line above the lists is cut:\n%s", in, size, s)
			}
			if !strings.Contains(squeeze(top), squeeze("verdict: "+clean(v.Summary))) {
				t.Errorf("%s at %v: verdict %q not whole:\n%s", in, size, v.Summary, s)
			}
			if f := v.FirstFailure; f != "" && !strings.Contains(squeeze(top), squeeze("First failure: "+clean(f))) {
				t.Errorf("%s at %v: first failure %q not whole:\n%s", in, size, f, s)
			}
			if strings.Count(s, "┗")+strings.Count(s, "└") < 3 || !strings.Contains(s, "Recompiles") {
				t.Errorf("%s at %v: the lists lost their boxes:\n%s", in, size, s)
			}
		}
	}
}

// Where the terminal cannot spare the lines (60×16: the lists keep their rows), the verdict's one line says where it
// is whole ("… i: in full"), and i shows it, with the first failure, whole.
func TestAVerdictThatDoesNotFitSaysWhereItIsWhole(t *testing.T) {
	m := openModel(t, 60, 16, "../../testdata/recorded/ddp-compile/runs/0011-distributed")
	v := clean(m.cur.snap.analysis.Verdict.Summary)
	s := plain(m)
	if l := lineWith(t, s, "verdict: "); !strings.HasSuffix(strings.TrimRight(l, " "), "… i: in full") {
		t.Errorf("the cut verdict should say where it is whole: %q\n%s", l, s)
	}
	press(m, "i")
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 40}) // the info screen scrolls: all of it on one page
	if s := plain(m); !strings.Contains(squeeze(s), squeeze("verdict"+v)) {
		t.Errorf("i should show the verdict whole (%q):\n%s", v, s)
	}
	m = openModel(t, 80, 40, "../../testdata/recorded/peer-abort/runs/0001-breaks")
	press(m, "i")
	s = plain(m)
	for _, want := range []string{"verdict" + clean(m.cur.snap.analysis.Verdict.Summary),
		"firstfailure" + clean(m.cur.snap.analysis.Verdict.FirstFailure)} {
		if !strings.Contains(squeeze(s), squeeze(want)) {
			t.Errorf("i should show %q whole:\n%s", want, s)
		}
	}
}
