package tui

import (
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/session"
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
		out, err := os.ReadFile(filepath.Join(dir, "combined.log"))
		if err != nil {
			return nil
		}
		v, ok := session.ExtractMetric(re, out)
		if !ok {
			return nil
		}
		_ = session.UpdateMeta(dir, func(me *session.Meta) { me.Metric = &v })
		return metricMsg{runID: id, value: v}
	}
}
