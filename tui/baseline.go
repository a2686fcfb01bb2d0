package tui

import (
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// metricMsg carries the --metric value read from a finished run's output.
type metricMsg struct {
	runID int
	value float64
}

// recordMetric extracts --metric from a finished run's output and stores it in its meta.json, for the eager
// baseline comparison of checklist step 1.
func (m *Model) recordMetric(r *runView) tea.Cmd {
	if m.opt.metric == nil || !r.hasMeta || r.meta.Dir == "" {
		return nil
	}
	re, dir, id := m.opt.metric, r.meta.Dir, r.id
	return func() tea.Msg {
		v, ok, err := runs.MetricOfFile(re, filepath.Join(dir, "combined.log")) // may be gigabytes: never read whole
		if err != nil || !ok {
			return nil
		}
		_ = runs.UpdateMeta(dir, func(me *runs.Meta) { me.Metric = &v })
		return metricMsg{runID: id, value: v}
	}
}
