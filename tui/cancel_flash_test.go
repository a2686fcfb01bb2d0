package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// x says "cancelling the run…" while the run stops; once it has stopped the status line no longer says it is
// cancelling (it did, for as long as no other message came).
func TestCancellingIsNotSaidOfAStoppedRun(t *testing.T) {
	store, err := runs.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(options{mode: modeRun, spec: runs.Spec{Argv: []string{"sh", "-c", "echo starting; sleep 30"}, Preset: "breaks"},
		store: store, set: builtinSet(t)})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	h := newHarness(t, m)
	h.until("the run to start", func() bool { return m.cur != nil && m.sess != nil && m.sess.Handle(m.cur.id) != nil })
	h.key("x")
	if !strings.Contains(plain(m), "cancelling the run") {
		t.Errorf("x does not say it is cancelling:\n%s", plain(m))
	}
	h.until("the run to stop", func() bool { return finished(m) })
	if screen := plain(m); strings.Contains(screen, "cancelling the run") || !strings.Contains(screen, "stopped by torchtriage") {
		t.Errorf("a stopped run is still being cancelled:\n%s", screen)
	}
}
