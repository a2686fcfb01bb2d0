package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// The metric can be set inside the TUI (m on the checklist): every finished run's metric is read again as the
// median of its matches after warm-up, step 1 compares on it, and y to the question makes lower better. Without
// it step 1 only had the wall-time estimate until the TUI was restarted with --metric.
func TestMetricSetInTheTUI(t *testing.T) {
	m := wallTimePair(t, 120, 32)
	store, err := runs.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m.opt.store = store
	for id, steps := range map[int][]string{1: {"900", "20", "21", "20", "19"}, 2: {"2500", "10", "11", "10", "10"}} {
		dir := filepath.Join(store.Dir, m.run(id).meta.Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		for _, s := range steps {
			log.WriteString("step_ms: " + s + "\n")
		}
		if err := os.WriteFile(filepath.Join(dir, "combined.log"), []byte(log.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		me := m.run(id).meta
		me.Dir = dir
		if err := runs.WriteMeta(dir, me); err != nil {
			t.Fatal(err)
		}
		m.run(id).meta = me
	}
	if v := m.baselineVerdict(); !strings.Contains(v, "no verdict without --metric") || !strings.Contains(v, "(m sets it here)") {
		t.Fatalf("before: %q", v)
	}
	press(m, "n") // the checklist
	press(m, "m")
	if !m.typing || !m.metricEdit {
		t.Fatalf("m on the checklist does not edit the metric (screen %v)", m.screen)
	}
	for _, k := range "step_ms: ([0-9.]+)" {
		press(m, string(k))
	}
	cmd := press(m, "enter")
	if m.opt.metric == nil || m.opt.metric.String() != "step_ms: ([0-9.]+)" || m.prompt == nil {
		t.Fatalf("metric %v, prompt %v", m.opt.metric, m.prompt)
	}
	runCmds(m, cmd)
	press(m, "y") // lower is better: a time
	if !m.opt.lowerBetter {
		t.Error("y did not make lower better")
	}
	e, c := m.run(1).meta, m.run(2).meta
	if e.Metric == nil || *e.Metric != 20 || e.MetricMatches != 5 || e.MetricWarmup != 1 || c.Metric == nil || *c.Metric != 10 {
		t.Fatalf("metrics: eager %v (%d, %d) compiled %v", e.Metric, e.MetricMatches, e.MetricWarmup, c.Metric)
	}
	if disk, err := runs.LoadRun(e.Dir); err != nil || disk.Metric == nil || *disk.Metric != 20 {
		t.Errorf("meta.json of the eager run: %+v %v", disk.Metric, err)
	}
	v := m.baselineVerdict()
	if !strings.HasPrefix(v, "keep compile: metric 10 compiled vs 20 eager (50.0% better; each the median of 4 matches after 1 warm-up)") {
		t.Errorf("after: %q", v)
	}
}

// runCmds runs a command and those it batches, handing the model their messages (as the program would).
func runCmds(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			runCmds(m, c)
		}
	case nil:
	default:
		m.Update(msg)
	}
}
