package tui

import (
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// metricMsg carries the --metric value read from a finished run's output.
type metricMsg struct {
	runID int
	stats runs.MetricStats
}

// recordMetric extracts --metric from a finished run's output and stores it in its meta.json, for the eager
// baseline comparison of checklist step 1.
func (m *Model) recordMetric(r *runView) tea.Cmd {
	if m.opt.metric == nil || !r.hasMeta || r.meta.Dir == "" {
		return nil
	}
	re, dir, id := m.opt.metric, r.meta.Dir, r.id
	return func() tea.Msg {
		st, ok, err := runs.MetricOfFile(re, filepath.Join(dir, "combined.log")) // may be gigabytes: never read whole
		if err != nil {
			return nil
		}
		if !ok { // a metric set in the TUI that this run's output does not match: its old value is no longer it
			st = runs.MetricStats{}
		}
		_ = runs.UpdateMeta(dir, func(me *runs.Meta) { setMetric(me, st) })
		return metricMsg{runID: id, stats: st}
	}
}

// setMetric stores what --metric read in a run's meta (no value when nothing matched).
func setMetric(me *runs.Meta, st runs.MetricStats) {
	me.Metric, me.MetricMatches, me.MetricWarmup = nil, st.Matches, st.Warmup
	if st.Matches > 0 {
		v := st.Value
		me.Metric = &v
	}
}
