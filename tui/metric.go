package tui

import (
	"fmt"
	"regexp"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// startMetric opens the input line on the metric (m): a regexp whose first group is the repro's number (--metric
// in the TUI). A run's metric is the median of what it matches after warm-up (runs.MetricOfFile).
func (m *Model) startMetric() {
	if m.storeDir() == "" {
		m.flash = "a metric is stored with a run's meta.json: these logs are not in a run store"
		return
	}
	m.metricEdit = true
	m.input = inputLine{prompt: "metric regexp (its first group is the number): ", limit: 200}
	if m.opt.metric != nil {
		m.input.set(m.opt.metric.String())
	}
	m.typing = true
}

// saveMetric sets the metric typed and reads it again from every finished run of the session, off the UI
// goroutine (recordMetric); it then asks which way is better. An empty or invalid regexp changes nothing.
func (m *Model) saveMetric() tea.Cmd {
	m.metricEdit = false
	text := strings.TrimSpace(m.input.value)
	if text == "" {
		m.flash = "metric unchanged"
		return nil
	}
	re, err := regexp.Compile(text)
	if err != nil {
		m.flash = "metric not set: " + err.Error()
		return nil
	}
	m.opt.metric, m.opt.lowerBetter = re, false
	var cmds []tea.Cmd
	n := 0
	for _, r := range m.runs {
		if r.done {
			cmds = append(cmds, m.recordMetric(r))
			n++
		}
	}
	m.flash = fmt.Sprintf("metric set: the median of its matches after warm-up, read from %s; higher is better", plural(n, "finished run"))
	m.ask("Is a lower value better (a time, a latency)? (y/n)", func(m *Model) tea.Cmd {
		m.opt.lowerBetter = true
		m.flash = "metric set: lower is better"
		return nil
	})
	return tea.Batch(cmds...)
}
