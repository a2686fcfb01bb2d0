package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/ladder"
)

// pumpLadder runs the ladder's command as the program would and hands the model its message; it returns the
// message and the command Update gave back.
func pumpLadder(t *testing.T, m *Model, cmd tea.Cmd) (tea.Msg, tea.Cmd) {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command to wait for the ladder")
	}
	msg := cmd()
	_, next := m.Update(msg)
	return msg, next
}

func ladderModel(t *testing.T) *Model {
	m := liveModel(t, 120, 32)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	return m
}

// L asks first (the ladder runs the repro up to 4 times), then climbs on the current run's command off the UI
// goroutine, shows each progress line with the tier's place, and at its end the ladder's own summary and the
// first bad tier's why; the key is in the one table, so the help lists it.
func TestLadderKeyAsksRunsShowsProgressAndResult(t *testing.T) {
	m := ladderModel(t)
	release := make(chan struct{})
	var got ladder.Options
	bad := "aot_eager"
	m.runLadder = func(o ladder.Options) (*ladder.Ladder, error) {
		got = o
		o.Progress("tier 1/4 eager: ok")
		<-release
		o.Progress("tier 2/4 aot_eager: compile_error: compile error: BackendCompilerFailed")
		return &ladder.Ladder{Experiment: "ladder-20261207-224000", FirstBad: &bad, Tiers: []ladder.Tier{
			{Backend: "eager", Result: ladder.OK}, {Backend: "aot_eager", Result: ladder.CompileError, Why: "compile error: BackendCompilerFailed"}},
			Summary: "aot_eager is the first bad tier (eager passed): AOTAutograd"}, nil
	}
	if cmd := press(m, "L"); cmd != nil || m.prompt == nil {
		t.Fatal("L started without asking")
	}
	if s := plain(m); !strings.Contains(s, "Run the backend ladder on this repro? It runs it up to 4 times") {
		t.Fatalf("no question:\n%s", s)
	}
	cmd := press(m, "y")
	msg, cmd := pumpLadder(t, m, cmd)
	if msg != ladderLineMsg("tier 1/4 eager: ok") || !strings.Contains(plain(m), "backend ladder: tier 1/4 eager: ok") {
		t.Fatalf("progress %v:\n%s", msg, plain(m))
	}
	if got.Context == nil || strings.Join(got.Spec.Argv, " ") != "python repro.py" || got.Spec.Preset != "breaks" {
		t.Errorf("the ladder's options: %+v", got)
	}
	if press(m, "q"); m.lad == nil || m.quitting() {
		t.Error("a key other than esc/ctrl+c reached the screen while the ladder runs")
	}
	close(release)
	_, cmd = pumpLadder(t, m, cmd)
	if s := plain(m); !strings.Contains(s, "tier 2/4 aot_eager: compile_error") {
		t.Errorf("second progress line:\n%s", s)
	}
	if msg, _ = pumpLadder(t, m, cmd); m.lad != nil {
		t.Fatalf("not ended by %T", msg)
	}
	s := strings.Join(strings.Fields(plain(m)), " ") // the status area wraps
	for _, want := range []string{"aot_eager is the first bad tier", "aot_eager: compile error: BackendCompilerFailed"} {
		if !strings.Contains(s, want) {
			t.Errorf("result lacks %q:\n%s", want, s)
		}
	}
	press(m, "?")
	if !strings.Contains(plain(m), "backend ladder on this repro") {
		t.Error("the help lacks L")
	}
}

// esc (or ctrl+c) stops the running tier through the ladder's context and says the user stopped it, never that
// the program failed; ctrl+c does not quit the TUI while the ladder runs.
func TestLadderCancelIsTheUsers(t *testing.T) {
	for _, k := range []string{"esc", "ctrl+c"} {
		m := ladderModel(t)
		m.runLadder = func(o ladder.Options) (*ladder.Ladder, error) {
			o.Progress("tier 2/4 aot_eager: running")
			<-o.Context.Done()
			return &ladder.Ladder{Summary: "the ladder was stopped by the user during tier aot_eager: no verdict"}, ladder.ErrStopped
		}
		press(m, "L")
		_, cmd := pumpLadder(t, m, press(m, "y"))
		if c := press(m, k); c != nil {
			t.Errorf("%s: gave a command (quit?)", k)
		}
		if s := plain(m); !strings.Contains(s, "stopping the backend ladder (stopped by you)") {
			t.Errorf("%s: while stopping:\n%s", k, s)
		}
		pumpLadder(t, m, cmd)
		s := plain(m)
		if !strings.Contains(s, "the backend ladder was stopped by you") || strings.Contains(s, "could not run") ||
			strings.Contains(s, "failed") || m.lad != nil {
			t.Errorf("%s: after the stop:\n%s", k, s)
		}
	}
}

// Where there is no command of the user's to run, or the run is still going, L says why in one line.
func TestLadderNotAvailableSaysWhy(t *testing.T) {
	demo := ladderModel(t)
	demo.opt.mode = modeDemo
	other := ladderModel(t) // a run of an earlier session, of another command, shown from the runs view
	other.cur.meta.UserArgv, other.cur.hasMeta = []string{"python", "other.py"}, true
	live := liveModel(t, 120, 32)
	feedRun(t, live, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", -1)
	for name, c := range map[string]struct {
		m    *Model
		want string
	}{
		"demo":   {demo, "not a replayed recording"},
		"opened": {openModel(t, 120, 32, "gb_recompile.triage.log"), "opened logs have no command"},
		"live":   {live, "runs once the run has ended"},
		"other":  {other, "this run is of another command"},
	} {
		if cmd := press(c.m, "L"); cmd != nil || c.m.prompt != nil || c.m.lad != nil || !strings.Contains(plain(c.m), c.want) {
			t.Errorf("%s: %q\n%s", name, c.m.flash, plain(c.m))
		}
	}
}

// On a run PyTorch's accuracy check found wrong the checklist proposes the wrong-result step and names L; the
// ladder then runs with the accuracy check on.
func TestLadderIsTheWrongStep(t *testing.T) {
	m := liveModel(t, 120, 40)
	feedRun(t, m, 1, "minifier.aot_l4_accuracy.run.log", "breaks", "graph_breaks,recompiles", 1)
	press(m, "n")
	if s := strings.Join(strings.Fields(plain(m)), " "); !strings.Contains(s, "runs the backend ladder on this repro (torchtriage ladder)") || !strings.Contains(s, "L backend ladder on this repro") {
		t.Fatalf("the wrong-result step does not name L:\n%s", plain(m))
	}
	got := make(chan ladder.Options, 1)
	m.runLadder = func(o ladder.Options) (*ladder.Ladder, error) {
		got <- o
		return &ladder.Ladder{Summary: "every tier passed"}, nil
	}
	press(m, "L")
	pumpLadder(t, m, press(m, "y"))
	if o := <-got; !o.CheckAccuracy {
		t.Error("the ladder of a wrong result runs without PyTorch's accuracy check")
	}
}
