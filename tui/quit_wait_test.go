package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// Quitting while a child ignores SIGINT and SIGTERM takes two graces (SIGKILL ends it): the screen says what it
// waits for, counting down the signal ladder, and the TUI ends once the run's final batch came. It was a blank
// screen for ~10 s (the TUI had left and waited in its shutdown).
func TestQuittingScreenSaysWhatItWaitsFor(t *testing.T) {
	m := liveModel(t, 80, 24)
	r := feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", -1)
	r.hasMeta, r.meta.Pid = true, 4242
	g := session.Grace(m.opt.spec)
	for _, c := range []struct {
		after time.Duration
		want  string
	}{
		{g / 5, "quitting: waiting for pid 4242 to end (SIGINT sent, SIGTERM in 4s)"},
		{g + g/5, "quitting: waiting for pid 4242 to end (SIGTERM sent, KILL in 4s)"},
		{2*g + time.Second, "quitting: waiting for pid 4242 to end (KILL sent)"},
	} {
		m.quitAt = fixedNow.Add(-c.after)
		if s := plain(m); !strings.Contains(s, c.want) {
			t.Errorf("%v after quitting:\n%s\nwant %q", c.after, s, c.want)
		}
	}
	if cmd := func() tea.Cmd { _, c := m.Update(quitTickMsg{}); return c }(); cmd == nil || isQuit(cmd) {
		t.Fatal("the TUI ended while its run was live")
	}
	end := fixedNow
	code := -9
	done := runs.Meta{ID: 1, State: runs.StateKilled, ExitCode: &code, End: &end}
	lr := session.NewFollower(1, fixedNow)
	lr.Apply(session.Event{RunID: 1, Kind: session.EventExited, Meta: &done, Time: end}, end)
	if _, cmd := m.Update(batchMsg{lr.Batch(m.analyzer(), end)}); !isQuit(cmd) {
		t.Error("the run's final batch did not end the quitting TUI")
	}
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}
