package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// The model's side of the session engine (triage/session): launches and opened logs come back as messages,
// batches are turned into snapshots. Everything slow runs in commands or on the session's goroutine.

// batchMsg is one run's news from the session.
type batchMsg struct{ b session.Batch }

// startedMsg says a launch returned.
type startedMsg struct {
	run  session.Handle
	spec runs.Spec
	err  error
}

// loadedMsg carries the opened logs, parsed and analysed.
type loadedMsg struct {
	b     session.Batch
	label string
	torch string     // a probe start file's torch version (opened run directories)
	meta  *runs.Meta // an opened run directory's meta.json: its command (the info screen)
	err   error
}

// analyzer is the session's analyser once the playbooks are read (it waits for them: commands, tests).
func (m *Model) analyzer() *session.Analyzer {
	m.pbs()
	return m.an
}

// start launches spec; its batches arrive through listen.
func (m *Model) start(spec runs.Spec) tea.Cmd {
	s, pbs := m.sess, m.pbs
	return func() tea.Msg {
		pbs() // the run's analyses need them
		r, err := s.Start(spec)
		return startedMsg{run: r, spec: spec, err: err}
	}
}

// listen is the command that waits for the session's next batch.
func (m *Model) listen() tea.Cmd {
	s := m.sess
	return func() tea.Msg {
		b, ok := s.Next()
		if !ok {
			return nil
		}
		return batchMsg{b}
	}
}

// loadCmd parses the opened paths (logs, run dirs, TORCH_TRACE dirs) off the UI goroutine.
func (m *Model) loadCmd() tea.Cmd {
	paths, an, pbs := m.opt.paths, m.an, m.pbs
	return func() tea.Msg { pbs(); return loadPaths(paths, an) }
}

// loadPaths reads the opened paths: the batch, the probe's torch version and, for one run directory, its meta.
func loadPaths(paths []string, an *session.Analyzer) loadedMsg {
	b, err := session.Open(paths, an)
	msg := loadedMsg{b: b, label: strings.Join(paths, " "), err: err}
	for _, p := range paths {
		if starts, _ := session.ReadStarts(p); len(starts) > 0 && msg.torch == "" {
			msg.torch = starts[0].Torch
		}
	}
	if len(paths) == 1 {
		if me, err := runs.LoadRun(paths[0]); err == nil {
			msg.meta = &me
		}
	}
	return msg
}

// snapshotOf makes a batch into the views' snapshot of its run; a batch without a new analysis keeps the
// previous one's findings, and one without a timeline (only notes) keeps its timeline and counts too. Nothing in
// a snapshot changes once made: a new one is built.
func snapshotOf(b session.Batch, prev *snapshot) *snapshot {
	s := &snapshot{runID: b.RunID, span: b.Span, timeline: timeline(b.Timeline), untimed: b.Untimed}
	if b.Timeline == nil && prev != nil {
		s.span, s.timeline, s.untimed = prev.span, prev.timeline, prev.untimed
	}
	a := b.Analysis
	if a == nil {
		if prev == nil {
			return s
		}
		keep := *prev
		keep.span, keep.timeline, keep.untimed = s.span, s.timeline, s.untimed
		return &keep
	}
	rep := a.Report
	// every rank the analysis knows (prefixes, probes, torchrun), as the report's header and rank agreement: a rank
	// that printed no record of its own has no per-rank counts (snapshot.counted)
	s.report, s.analysis, s.ranks, s.agree = rep, a, a.Evidence.Ranks, a.RankAgreement
	if lists, ok := b.View.([2][]*row); ok {
		s.breaks, s.recomps = lists[0], lists[1]
	}
	s.perRank = map[int]report.Counts{}
	for k, c := range rep.PerRank {
		if r, err := strconv.Atoi(k); err == nil {
			s.perRank[r] = c
		}
	}
	if rep.TorchVersion != nil {
		s.torch = *rep.TorchVersion
	}
	return s
}

// timeline converts the session's marks to the timeline's events.
func timeline(marks []session.Mark) []tlEvent {
	out := make([]tlEvent, 0, len(marks))
	for _, mk := range marks {
		e := tlEvent{at: mk.At, end: mk.End, rank: mk.Rank, kind: tlOther}
		switch {
		case mk.Stall:
			e.kind = tlStall
		case mk.Kind == logparse.KindGraphBreak:
			e.kind = tlBreak
		case mk.Kind == logparse.KindRecompile:
			e.kind = tlRecompile
		case mk.Kind == logparse.KindLimitHit:
			e.kind = tlLimit
		}
		out = append(out, e)
	}
	return out
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
	r.snap, r.log, r.done, r.label = snapshotOf(msg.b, nil), msg.b.Log, true, msg.label
	r.probes, r.parity = msg.b.Probes, report.ConfigParity(msg.b.Probes)
	r.probe.torch, r.opened = msg.torch, msg.meta
	m.show(r)
	m.refreshLists()
	if len(msg.b.Warnings) > 0 { // what reading the files showed: the CLI prints it on stderr
		m.flash = strings.Join(msg.b.Warnings, "; ")
	}
}
