package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/demo"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// harness drives a model the way the program does: commands run on goroutines, their messages come back to
// Update on the test goroutine.
type harness struct {
	t    *testing.T
	m    *Model
	msgs chan tea.Msg
}

func newHarness(t *testing.T, m *Model) *harness {
	h := &harness{t: t, m: m, msgs: make(chan tea.Msg, 64)}
	t.Cleanup(func() {
		m.sess.Stop()
		session.Shutdown(10 * time.Second)
	})
	h.run(m.Init())
	return h
}

func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if msg := cmd(); msg != nil {
			h.msgs <- msg
		}
	}()
}

func (h *harness) send(msg tea.Msg) {
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

func (h *harness) key(keys ...string) {
	for _, k := range keys {
		h.send(keyMsg(k))
	}
}

// until processes messages until cond holds.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(30 * time.Second)
	for !cond() {
		select {
		case msg := <-h.msgs:
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, c := range b {
					h.run(c)
				}
				continue
			}
			if _, ok := msg.(tickMsg); ok {
				continue
			}
			h.send(msg)
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s; screen:\n%s", what, plain(h.m))
		}
	}
}

// demoModel is `torchtriage demo` with the test binary as the repro, sped up, in a temporary store.
func demoModel(t *testing.T, scenario string, w, h int) *Model {
	t.Helper()
	store, err := runs.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	spec := runs.Spec{Argv: []string{testBinary(t), "__demo-repro", "--scenario", scenario},
		Preset: runs.DefaultPreset, TorchVersion: demo.TorchVersion, Env: map[string]string{"TORCHTRIAGE_DEMO_SPEED": "200"}}
	m := newModel(options{mode: modeDemo, spec: spec, scenario: scenario, store: store, set: builtinSet(t)})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

func finished(m *Model) bool { return m.cur != nil && m.cur.done && m.cur.snap != nil }

func TestDemoSessionRunsAndRelaunchesWithAnotherPreset(t *testing.T) {
	m := demoModel(t, "gb_recompile", 120, 32)
	h := newHarness(t, m)
	h.until("the first run to finish", func() bool { return finished(m) })
	first := m.cur
	if first.meta.Preset != "breaks" || first.meta.TorchLogs != "graph_breaks,recompiles" {
		t.Fatalf("first run: preset %q TORCH_LOGS %q", first.meta.Preset, first.meta.TorchLogs)
	}
	if got := first.snap.report.Counts.GraphBreaks; got != 3 {
		t.Errorf("graph breaks = %d, want 3 (the recording's)", got)
	}
	screen := plain(m)
	for _, want := range []string{"run 1 · breaks (graph_breaks", "· demo gb_recompile", "DEMO · recording", "print()", "limit hit"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	// p opens the picker; choose "recompiles" and relaunch with r
	h.key("p")
	for m.pre.pick != presetIndex("recompiles") {
		h.key("down")
	}
	h.key("r")
	h.until("the relaunch to finish", func() bool { return m.cur != first && finished(m) })
	if m.cur.meta.Preset != "recompiles" || !strings.Contains(m.cur.meta.TorchLogs, "recompiles_verbose") {
		t.Fatalf("relaunch: preset %q TORCH_LOGS %q", m.cur.meta.Preset, m.cur.meta.TorchLogs)
	}
	if len(m.runs) != 2 {
		t.Errorf("runs = %d, want 2", len(m.runs))
	}

	// torchtriage open of the stored run dir shows the same findings, with its log and jumps into it
	opened, err := session.Open([]string{first.meta.Dir}, m.analyzer())
	if err != nil {
		t.Fatal(err)
	}
	snap := snapshotOf(opened, nil)
	if got, want := len(snap.all()), len(first.snap.all()); got != want {
		t.Errorf("open of the run dir: %d findings, live run had %d", got, want)
	}
	ev := snap.breaks[0].evidence[0]
	if at := opened.Log.Find(ev.Input, ev.InputLine); at < 0 || !strings.Contains(opened.Log.Line(at).Text, "raph break") {
		t.Errorf("evidence %s:%d does not lead to its record in the opened log (at %d)", ev.Input, ev.InputLine, at)
	}
}

func TestALaunchThatFailsIsShownAndDoesNotBlockQuit(t *testing.T) {
	store, err := runs.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(options{mode: modeRun, spec: runs.Spec{Argv: []string{"/nonexistent/repro"}, Preset: "breaks"},
		store: store, set: builtinSet(t)})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	h := newHarness(t, m)
	h.until("the failed launch to be recorded", func() bool { return m.cur != nil && m.cur.done })
	screen := plain(m)
	if !strings.Contains(screen, "failed to start") || !strings.Contains(screen, "/nonexistent/repro") {
		t.Fatalf("the failure is not on screen:\n%s", screen)
	}
	cmd := press(m, "q")
	if cmd == nil {
		t.Fatal("q should quit at once: nothing runs")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q should return tea.Quit")
	}
}

func TestRunnerRelaunchWithoutARejectedNameIsFollowed(t *testing.T) {
	m := demoModel(t, "gb_recompile", 120, 32)
	m.opt.spec.TorchVersion = "" // unknown torch: the name is passed and the recorded torch rejects it
	m.pre = newPresetState("breaks", []string{"graph_breaks", "recompiles", "nonexistent_thing"})
	h := newHarness(t, m)
	h.until("the automatic relaunch to finish", func() bool { return m.cur != nil && m.cur.id == 2 && finished(m) })
	first := m.runByID(1)
	if first == nil || !first.done || first.meta.RelaunchedAs == "" {
		t.Fatalf("run 1 should be recorded as relaunched: %+v", first)
	}
	if strings.Contains(m.cur.meta.TorchLogs, "nonexistent_thing") {
		t.Errorf("run 2 still has the rejected name: %q", m.cur.meta.TorchLogs)
	}
	if !strings.Contains(plain(m), "nonexistent_thing") {
		t.Errorf("the relaunch note is not shown:\n%s", plain(m))
	}
	if m.cur.snap.report.Counts.GraphBreaks != 3 {
		t.Errorf("run 2 breaks = %d, want 3", m.cur.snap.report.Counts.GraphBreaks)
	}
}
