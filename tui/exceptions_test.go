package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/tui/cells"
)

// testdata/recorded/caught-printed: `torchtriage report` prints "Caught ×1 single process RuntimeError: backend
// exploded (the program went on: no process died of it)"; the TUI showed only the probe-mismatch row. The main
// screen shows the report's line, cut to the width.
func TestMainScreenShowsTheCaughtExceptions(t *testing.T) {
	path := filepath.Join("..", "testdata", "recorded", "caught-printed", "runs", "0028-breaks")
	for _, sz := range [][2]int{{80, 24}, {120, 32}} {
		m := openPath(t, sz[0], sz[1], path)
		s := plain(m)
		l := lineWith(t, s, " Caught ×1 single process RuntimeError: backend exploded")
		if sz[0] >= 120 && !strings.Contains(l, "(the program went on: no process died of it)") {
			t.Errorf("%d cols: %q", sz[0], l)
		}
		if cells.Width(l) > sz[0] {
			t.Errorf("%d cols: %q", sz[0], l)
		}
		if lines := strings.Split(s, "\n"); len(lines) != sz[1] {
			t.Errorf("%d lines at %dx%d", len(lines), sz[0], sz[1])
		}
	}
	// a caught compile error is a row of its own (CATCH): no line repeats it
	m := openPath(t, 120, 32, filepath.Join("..", "testdata", "recorded", "caught-compile", "runs", "0001-breaks"))
	if s := plain(m); strings.Contains(s, " Caught ×") || !strings.Contains(s, "CATCH") {
		t.Errorf("caught-compile:\n%s", s)
	}
}

// testdata/recorded/interrupt-reraise: the header and the open line read "2 records" (a KeyboardInterrupt and
// the RuntimeError raised while handling it, which the report counts nowhere) above empty panes and a report
// that says "Nothing found". No count the report does not show; and the exceptions of the tool's own stop are
// never shown as the program's crash.
func TestOpenLineCountsNothingTheReportDoesNot(t *testing.T) {
	path := filepath.Join("..", "testdata", "recorded", "interrupt-reraise", "runs", "0001-breaks")
	for _, sz := range [][2]int{{80, 24}, {120, 32}} {
		m := openPath(t, sz[0], sz[1], path)
		s := plain(m)
		for _, bad := range []string{"2 records", "Caught", "CRASH", "crash", "First failure", "interrupted while waiting"} {
			if strings.Contains(s, bad) {
				t.Errorf("%dx%d: %q on screen:\n%s", sz[0], sz[1], bad, s)
			}
		}
		lineWith(t, s, "stopped by torchtriage (timed out after 8s)")
	}
}

// An opened run dir that did not start (testdata/recorded/invalid-logs, torch rejected TORCH_LOGS) showed the
// failure banner of a launch: "command:" with nothing after it and "r reruns (after a fix)", though open
// relaunches nothing (r is no key there). The banner names the run dir's command, from meta.json, and the keys
// open has.
func TestOpenedRunThatDidNotStartNamesItsCommandAndNoRerun(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 32}} {
		m := openPath(t, sz[0], sz[1], filepath.Join("..", "testdata", "recorded", "invalid-logs", "runs", "0001-custom"))
		s := plain(m)
		if strings.Contains(s, "rerun") {
			t.Errorf("%dx%d: offers a rerun:\n%s", sz[0], sz[1], s)
		}
		lineWith(t, s, "command: python3 gb.py")
		lineWith(t, s, "ModuleNotFoundError: No module named 'foo'")
	}
	// a log file alone has no command: no empty "command:"
	m := openModel(t, 120, 32, "../../testdata/recorded/invalid-logs/runs/0001-custom/stderr.log")
	if s := plain(m); strings.Contains(s, "command:") || strings.Contains(s, "rerun") {
		t.Errorf("log file:\n%s", s)
	}
}

// The "Did not start" banner's first line read "✗ did_not_start", the JSON's state name; the report words it
// "did not start", and so does the banner.
func TestDidNotStartBannerIsWords(t *testing.T) {
	m := openPath(t, 120, 32, filepath.Join("..", "testdata", "recorded", "invalid-logs", "runs", "0006-custom"))
	s := plain(m)
	if strings.Contains(s, "did_not_start") {
		t.Errorf("state name on screen:\n%s", s)
	}
	lineWith(t, s, "✗ did not start ")
}
