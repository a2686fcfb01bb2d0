package tui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/session"
)

func TestQuitAsksWhileARunIsGoing(t *testing.T) {
	m := liveModel(t, 100, 30)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", -1)
	if cmd := press(m, "q"); cmd != nil {
		t.Fatal("q with a running repro must ask first, not quit")
	}
	if !strings.Contains(plain(m), "Kill it and quit? (y/n)") {
		t.Fatalf("no quit question:\n%s", plain(m))
	}
	press(m, "n")
	if m.prompt != nil {
		t.Fatal("n should close the question")
	}
	press(m, "q")
	cmd := press(m, "y")
	if cmd == nil {
		t.Fatal("y should quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("y should return tea.Quit")
	}
}

func TestQuitAtOnceWhenNothingRuns(t *testing.T) {
	m := openModel(t, 80, 24, "gb_recompile.triage.log")
	cmd := press(m, "q")
	if cmd == nil {
		t.Fatal("q should quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q should return tea.Quit")
	}
}

func TestStallBannerOffersStacksCancelWait(t *testing.T) {
	m := liveModel(t, 100, 30)
	r := feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", -1)
	since := fixedNow.Add(-42e9)
	m.Update(batchMsg{session.Batch{RunID: r.id, Log: r.log, Notes: []session.Note{{Kind: session.EventStalled, Since: since}}}})
	screen := plain(m)
	if !strings.Contains(screen, "no output for 42s") || !strings.Contains(screen, "s dump stacks · c/x cancel run · w keep waiting") {
		t.Fatalf("no stall banner:\n%s", screen)
	}
	if !strings.Contains(screen, "⚠ stalled 42s") {
		t.Errorf("header should say stalled:\n%s", screen)
	}
	press(m, "w")
	if strings.Contains(plain(m), "s dump stacks") {
		t.Fatal("w should dismiss the banner")
	}
	m.Update(batchMsg{session.Batch{RunID: r.id, Log: r.log, Notes: []session.Note{{Kind: session.EventResumed}}}})
	if strings.Contains(plain(m), "stalled") {
		t.Errorf("resumed run still shows stalled:\n%s", plain(m))
	}
}

func TestPresetBarTogglesNamesAndMarksTheChange(t *testing.T) {
	m := liveModel(t, 160, 30)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	press(m, "space") // focuses the bar
	if m.focus != panePresets {
		t.Fatal("space on a list should focus the preset bar")
	}
	press(m, "right", "right", "space") // recompiles_verbose on
	if !slices.Contains(m.pre.logs.Enabled(), "recompiles_verbose") {
		t.Fatalf("recompiles_verbose not toggled on: %v", m.pre.logs.Enabled())
	}
	if !strings.Contains(plain(m), "changed: r relaunches") || !strings.Contains(plain(m), "[x]recompiles_verbose") {
		t.Fatalf("bar does not show the change:\n%s", plain(m))
	}
	spec := m.launchSpec()
	if spec.Preset != "breaks" || !slices.Contains(spec.Logs, "recompiles_verbose") || !slices.Contains(spec.Logs, "graph_breaks") {
		t.Fatalf("next launch: preset %q logs %v", spec.Preset, spec.Logs)
	}
	press(m, "space") // off again: back to the preset's own names
	if spec := m.launchSpec(); spec.Logs != nil {
		t.Errorf("untoggled bar should launch the preset as is, logs %v", spec.Logs)
	}
	if strings.Contains(plain(m), "changed:") {
		t.Errorf("bar equal to the run should not say changed")
	}
}

func TestPresetBarDisablesNamesTheTorchDoesNotKnow(t *testing.T) {
	m := liveModel(t, 200, 30)
	m.opt.spec.TorchVersion = "2.1"
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	var unknown string
	for i, e := range m.pre.entries() {
		if e.Name != traceEntry && !known(e.Name, "2.1") {
			unknown = e.Name
			m.setFocus(panePresets)
			m.pre.cursor = i
			break
		}
	}
	if unknown == "" {
		t.Skip("every catalog name is known to torch 2.1")
	}
	press(m, "space")
	if slices.Contains(m.pre.logs.Enabled(), unknown) {
		t.Fatalf("%s was toggled on although torch 2.1 does not know it", unknown)
	}
	if !strings.Contains(plain(m), "[-]"+unknown) || !strings.Contains(plain(m), "does not know this TORCH_LOGS name") {
		t.Errorf("unknown name not shown disabled:\n%s", plain(m))
	}
}

func TestRelaunchAsksWhileRunningAndUsesTheChosenPreset(t *testing.T) {
	m := liveModel(t, 100, 30)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", -1)
	press(m, "p", "down") // recompiles
	press(m, "enter")
	if m.pre.name != "recompiles" {
		t.Fatalf("picker chose %q", m.pre.name)
	}
	if cmd := press(m, "r"); cmd != nil {
		t.Fatal("r with a running repro must ask first")
	}
	if m.prompt == nil || !strings.Contains(m.prompt.text, "relaunch with preset recompiles") {
		t.Fatalf("prompt: %+v", m.prompt)
	}
	cmd := press(m, "y")
	if cmd == nil {
		t.Fatal("y should start the relaunch")
	}
	msg, ok := cmd().(startedMsg)
	if !ok {
		t.Fatal("the relaunch command should report the launch")
	}
	if msg.err == nil || !strings.Contains(msg.err.Error(), "no run store") {
		t.Errorf("the test session has no store; err = %v", msg.err)
	}
	if msg.spec.Preset != "recompiles" {
		t.Errorf("relaunch preset %q, want recompiles", msg.spec.Preset)
	}
}

func TestSecondCtrlCQuitsWhileRunning(t *testing.T) {
	m := liveModel(t, 100, 30)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", -1)
	if cmd := press(m, "ctrl+c"); cmd != nil {
		t.Fatal("the first ctrl+c with a running repro must ask")
	}
	cmd := press(m, "ctrl+c")
	if cmd == nil {
		t.Fatal("a second ctrl+c should quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("a second ctrl+c should return tea.Quit")
	}
}
