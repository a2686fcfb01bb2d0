package tui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/triage/session"
)

// openPaths is openModel of paths as given (absolute, or relative to testdata/).
func openPaths(t testing.TB, w, h int, p string) *Model {
	t.Helper()
	if !filepath.IsAbs(p) {
		return openModel(t, w, h, p)
	}
	m := newModel(options{mode: modeOpen, paths: []string{p}, set: builtinSet(t)})
	m.now = func() time.Time { return fixedNow }
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	b, err := session.Open([]string{p}, m.analyzer())
	m.Update(loadedMsg{b: b, label: p, err: err})
	return m
}

// The timeline's counts are the report's, each kind named as itself (H100/H200 g08b, real 2.11 output): it read
// "3 compile events" and "3 recompile events" of 2 recompiles and 1 limit hit, and left the compile error out.
func TestTimelineCountsAreTheReports(t *testing.T) {
	m := openModel(t, 120, 32, "../../testdata/gpu-e2e/e2e-20261127/g08b-limit")
	press(m, "t")
	s := plain(m)
	lineWith(t, s, "recompiles ≥2 · limit hits ≥1") // the process died of the limit hit: floors, as the report's
	lineWith(t, s, "compile errors ≥1")
	for _, bad := range []string{"3 recompile events", "3 compile events"} {
		if strings.Contains(s, bad) {
			t.Errorf("%q on the timeline:\n%s", bad, s)
		}
	}
	// the compile error is a Python traceback: no time stamp, so it is said to be off the timeline, not dropped
	lineWith(t, s, "not placed: compile errors")
}

// A TORCH_TRACE dir whose lines carry glog time stamps places its recompiles and limit hit (they read "carry no
// time stamps" under a title "(log time stamps)", on an axis "0s … 0ms").
func TestTimelinePlacesTraceRecordsByTheirTimeStamps(t *testing.T) {
	m := openModel(t, 120, 32, "../../testdata/recorded/trace-limit")
	press(m, "t")
	s := plain(m)
	if strings.Contains(s, "no time stamps") || strings.Contains(s, " 0ms ") {
		t.Errorf("trace records not placed:\n%s", s)
	}
	if row := lineWith(t, s, "process "); !strings.Contains(row, "▲") || !strings.Contains(row, "●") {
		t.Errorf("lane %q", row)
	}
}

// Inputs whose timeline records carry no time stamp (a traceback) say so, and draw no axis of a run of 0 ms.
func TestTimelineWithNothingTimedSaysWhy(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"../../testdata/gpu-e2e/e2e-20261127/g11-triton", "compile errors"},
		{"../../testdata/gpu-e2e/e2e-20261127/g14-oom", "no graph break, recompile, limit hit, CUDA-graph skip or compile error record"},
		{"../../testdata/recorded/dist-crash", "no graph break, recompile, limit hit, CUDA-graph skip or compile error record"},
	} {
		m := openModel(t, 120, 32, c.path)
		press(m, "t")
		s := plain(m)
		if strings.Contains(s, "TORCH_TRACE files") || strings.Contains(s, "0ms") || strings.Contains(s, "(log time stamps)") {
			t.Errorf("%s:\n%s", c.path, s)
		}
		lineWith(t, s, "nothing to place on the timeline")
		lineWith(t, s, c.want)
	}
}

// No torch output at all: the timeline has nothing to place and says why, as the verdict does (it drew a
// `process` lane and "no recompiles on the timeline").
func TestTimelineOfNoTorchOutput(t *testing.T) {
	for _, p := range []string{"../../testdata/recorded/interrupt-reraise", "/dev/null"} {
		m := openPaths(t, 80, 24, p)
		press(m, "t")
		s := plain(m)
		for _, bad := range []string{"process ", "no recompiles", "0ms"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s: %q on the timeline:\n%s", p, bad, s)
			}
		}
		if l := lineWith(t, s, "nothing to place: the "); !strings.Contains(l, "no torch output") {
			t.Errorf("%s: %q", p, l)
		}
	}
}

// The probe ran and counted no compiled frame (set_stance("force_eager")): the compile-time section says what it
// found, not "appears here … when the probe ran".
func TestTimelineSaysTheProbeCountedNoFrame(t *testing.T) {
	m := openModel(t, 120, 32, "../../testdata/recorded/force-eager/runs/0001-breaks")
	press(m, "t")
	s := plain(m)
	if strings.Contains(s, "when the probe ran") {
		t.Errorf("timeline:\n%s", s)
	}
	lineWith(t, s, "no frame was compiled (the probe counted none)")
}

// A stall is drawn over its span (from the last output to the program's next output, or to now while it goes
// on), not as one cell at its start.
func TestTimelineDrawsAStallsSpan(t *testing.T) {
	m := newModel(options{mode: modeOpen, set: builtinSet(t)})
	s := &snapshot{timeline: timeline([]session.Mark{
		{At: 10 * time.Second, Rank: -1, Stall: true, End: 50 * time.Second},
		{At: 80 * time.Second, Rank: -1, Stall: true},
	})}
	lanes := m.timelineLanes(s, 100*time.Second, 4+12+1+101)
	lane := ansi.Strip(lanes[2])
	if n := strings.Count(lane, "░"); n < 55 {
		t.Errorf("lane %q draws %d stall cells, want the spans 10–50 s and 80 s–now (about 60)", lane, n)
	}
}
