package tui

import (
	"strconv"
	"time"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/probe"
)

// builder turns reports into snapshots (off the UI goroutine).
type builder struct {
	set *playbooks.Set
}

func newBuilder(set *playbooks.Set) *builder { return &builder{set: set} }

// snapshot analyses a report (findings, playbooks, rank agreement) and builds the views' data of one run.
func (b *builder) snapshot(runID int, rep *triage.Report, records int, timeline []tlEvent, span time.Duration,
	probes []probe.Info) *snapshot {
	a := triage.Analyze(rep, b.set, probes)
	s := &snapshot{runID: runID, report: rep, analysis: a, records: records, timeline: timeline, span: span,
		ranks: rep.Ranks, perRank: map[int]triage.Counts{}, agree: a.RankAgreement}
	s.breaks, s.recomps = rows(a, b.set)
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

// withProbes re-analyses a snapshot once the probe files of its run are read (config parity, probe mismatch).
func (b *builder) withProbes(s *snapshot, probes []probe.Info) *snapshot {
	if s == nil || len(probes) == 0 {
		return s
	}
	return b.snapshot(s.runID, s.report, s.records, s.timeline, s.span, probes)
}
