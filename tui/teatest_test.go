package tui

import (
	"bytes"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// Smoke tests through a real bubbletea program (teatest): the screen appears, keys arrive, q closes a view and
// ends the program from the main screen.

func TestProgramOpensLogsAndQuits(t *testing.T) {
	m := newModel(options{mode: modeOpen, paths: []string{testdataPath(t, "gb_recompile.triage.log")},
		set: builtinSet(t)})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("print()")) },
		teatest.WithDuration(10*time.Second))
	tm.Send(keyMsg("R"))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("single process")) },
		teatest.WithDuration(10*time.Second))
	tm.Send(keyMsg("q")) // closes the ranks view (the tig habit): had it quit, the final screen would be ranks
	tm.Send(keyMsg("q")) // quits from the main screen
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	if fm, ok := tm.FinalModel(t).(*Model); !ok || fm.screen != screenMain {
		t.Errorf("final model: %T on screen %v", tm.FinalModel(t), fm.screen)
	}
}

func TestProgramRunsTheDemoLive(t *testing.T) {
	m := demoModel(t, "r05_dist_c10d", 120, 32)
	t.Cleanup(m.sess.Stop)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 32))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("exited 0")) },
		teatest.WithDuration(20*time.Second))
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	fm := tm.FinalModel(t).(*Model)
	if fm.cur == nil || fm.cur.snap == nil || len(fm.cur.snap.ranks) != 2 || fm.cur.snap.agree.Agree {
		t.Fatalf("the 2-rank demo should end with ranks 0 and 1 disagreeing")
	}
}
