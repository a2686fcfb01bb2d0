package tui

import (
	"time"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// row is one finding as the lists show it. Rows are built off the UI goroutine and never changed afterwards.
type row struct {
	key      string // stable identity across updates (selection follows it)
	gbid     string // "GB0059" when the log names it
	kind     findings.Kind
	what     string // short label: "print()", "f (resume @18)"
	where    string // user frame: "repro.py:12 helper"
	file     string // full path of the site
	line     int
	count    int // records
	ranks    []int
	note     string      // recompiles: the guard that failed, summarised
	expected bool        // by design (category expected)
	assumed  bool        // expected by assumption: automatic dynamic's, no dynamic log or trace showing it
	caught   bool        // a compile error the program caught and went on after (no process died of it)
	peerGone bool        // a rank that died of its peer's failure (its collective lost the peer): no crash of its own
	limit    bool        // the recompile limit was hit for this function
	severity string      // high, medium, low, info
	category string      // fix, consider, expected
	perRank  map[int]int // records per rank (-1: a process without rank)
	title    string      // one line for the recommended box
	why      string      // the finding's own why, shown in the playbook's place (findings.Finding.Why)
	do       string      // the finding's own first step, where the playbook's is generic (findings.Finding.Do)
	pb       *playbooks.Playbook
	related  []*playbooks.Playbook
	evidence []report.Evidence
	detail   []string // extra lines for the detail view (guards, message, hints)
	search   string   // text the fuzzy filter matches
}

// tlEvent is one compile event on the timeline.
type tlEvent struct {
	at   time.Duration // since the first event of the run
	end  time.Duration // a stall's end; 0: it goes on (drawn to the end of the axis)
	rank int
	kind tlKind
}

type tlKind uint8

const (
	tlBreak tlKind = iota
	tlRecompile
	tlLimit
	tlOther // errors, CUDA-graph skips
	tlStall
)

// snapshot is everything the views show about one run at one moment. A new snapshot replaces the old one
// whole; nothing in it is modified after it is handed to the model.
type snapshot struct {
	runID    int
	report   *report.Report
	analysis *triage.Analysis
	breaks   []*row // graph breaks, errors, skips, rank and probe findings, by impact
	recomps  []*row // recompiles and recompile-limit hits, by impact
	ranks    []int
	perRank  map[int]report.Counts
	agree    ranks.RankAgreement
	timeline []tlEvent
	span     time.Duration   // timeline length
	untimed  []logparse.Kind // kinds of timeline records without a time stamp (opened logs): counted, not placed
	torch    string          // torch version seen in the log format
}

// list returns the rows of a pane.
func (s *snapshot) list(p pane) []*row {
	if s == nil {
		return nil
	}
	if p == paneRecompiles {
		return s.recomps
	}
	return s.breaks
}

// all is every row, left list first.
func (s *snapshot) all() []*row {
	return append(append([]*row(nil), s.breaks...), s.recomps...)
}
