package tui

import (
	"strings"
	"testing"
)

// The log view of a TORCH_TRACE directory shows the trace file's lines (it was blank, "lines 0–0 of 0"), and the
// detail view's jump to a trace record lands on its line (it said "…torch_trace_….log:489 is not in the log
// view").
func TestLogViewShowsTraceFileLines(t *testing.T) {
	m := openModel(t, 120, 32, "../../testdata/recorded/trace-limit")
	press(m, "l")
	s := plain(m)
	if strings.Contains(s, "of 0") || !strings.Contains(s, "of 600") {
		t.Fatalf("log view of a trace dir:\n%s", s)
	}
	press(m, "esc", "enter", "enter") // the recompile of f, its first record: line 489
	s = plain(m)
	if strings.Contains(s, "is not in the log view") || !strings.Contains(lineWith(t, s, " 489 "), "compilation_metrics") {
		t.Fatalf("jump to a trace record:\n%s", s)
	}
}
