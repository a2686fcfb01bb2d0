package tui

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/probe"
)

// loadedMsg carries the opened logs, parsed.
type loadedMsg struct {
	snap   *snapshot
	log    logBuffer
	probes []probe.Info
	label  string
	err    error
}

// loadCmd parses the opened paths (logs, run dirs, TORCH_TRACE dirs) off the UI goroutine.
func loadCmd(paths []string, b *builder) tea.Cmd {
	return func() tea.Msg { return load(paths, b) }
}

func load(paths []string, b *builder) loadedMsg {
	label := strings.Join(paths, " ")
	for _, p := range paths {
		if p == "-" {
			return loadedMsg{label: label, err: fmt.Errorf("open reads files, not standard input: use torchtriage report - for a pipe")}
		}
	}
	inputs, err := logparse.Discover(paths)
	if err != nil {
		return loadedMsg{label: label, err: err}
	}
	rep, recs, err := triage.LoadRecords(paths, nil)
	if err != nil {
		return loadedMsg{label: label, err: err}
	}
	var names []string
	for _, in := range inputs {
		names = append(names, in.Name)
	}
	w := newLogWriter(names...)
	for i, in := range inputs {
		if in.Trace {
			continue
		}
		data, err := os.ReadFile(in.Path)
		if err != nil {
			return loadedMsg{label: label, err: err}
		}
		if len(inputs) > 1 {
			w.header("── " + in.Name + " ──")
		}
		w.write(i, data)
		w.flush()
	}
	events, span := recordTimeline(recs)
	var infos []probe.Info
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			more, _ := probe.ReadDir(p)
			infos = append(infos, more...)
		}
	}
	return loadedMsg{snap: b.snapshot(0, rep, len(recs), events, span, infos), log: w.view(), probes: infos, label: label}
}

// recordTimeline places records by their log time stamps, relative to the first one.
func recordTimeline(recs []*logparse.Record) ([]tlEvent, time.Duration) {
	var first time.Time
	for _, r := range recs {
		if !r.Time.IsZero() && (first.IsZero() || r.Time.Before(first)) {
			first = r.Time
		}
	}
	var out []tlEvent
	var span time.Duration
	for _, r := range recs {
		k, ok := tlKindOf(r)
		if !ok || r.Time.IsZero() {
			continue
		}
		at := r.Time.Sub(first)
		out = append(out, tlEvent{at: at, rank: r.Rank, kind: k})
		span = max(span, at)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].at < out[j].at })
	return out, span
}

// loaded shows the opened logs as the session's only run.
func (m *Model) loaded(msg loadedMsg) {
	m.loading = false
	if msg.err != nil {
		m.loadErr = "cannot open: " + msg.err.Error()
		m.flash = m.loadErr
		return
	}
	r := m.run(0)
	r.snap, r.log, r.done, r.label, r.probes = msg.snap, msg.log, true, msg.label, msg.probes
	r.parity = probe.ConfigParity(msg.probes)
	m.show(r)
	m.refreshLists()
}
