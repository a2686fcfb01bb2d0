package findings

import (
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// hangReasons are the words a hang's cause is matched to its playbook by (playbooks/builtin: dist-*).
var hangReasons = map[string]string{
	report.CauseConditionalCollective: "conditional collective",
	report.CauseCollectiveMismatch:    "collective mismatch",
	report.CauseRankDead:              "rank dead",
	report.CauseRankCompiling:         "rank compiling",
	report.CauseWaitOutside:           "wait outside collectives",
}

// HangFinding is the finding of a hang (report.HangOf): where the ranks wait and why, with the playbook of its
// cause; false when there is nothing to act on (no hang, no cause: a stall the run went on after).
func HangFinding(h *report.Hang, set *playbooks.Set) (Finding, bool) {
	if h == nil || h.State == report.HangNotHung && h.Cause == "" || h.State == report.HangUnknown && h.Cause == "" && len(h.Ranks) == 0 {
		return Finding{}, false
	}
	f := Finding{Kind: KindHang, ID: "hang:" + strings.ReplaceAll(h.Cause, "_", "-"), What: hangWhat(h), Records: 1,
		Evidence: []report.Evidence{}, RankStats: map[int]report.RankStat{}}
	if h.Cause == "" {
		f.ID = "hang:" + h.State
	}
	f.Title = hangTitle(h)
	for _, r := range h.Ranks {
		f.RankStats[r.Rank] = report.StatN(1)
		if f.File == "" && r.File != "" && !r.Compiling {
			f.File, f.Line, f.Function = r.File, r.Line, r.Function
		}
		if r.File != "" && len(f.Evidence) < report.MaxEvidence {
			f.Evidence = append(f.Evidence, report.Evidence{Rank: r.Rank, File: r.File, Line: r.Line})
		}
	}
	f.Ranks = RanksOf(f.RankStats)
	f.Detail = hangDetail(h)
	if h.State == report.HangUnknown && h.Cause != report.CauseRankCompiling { // a sign, not a proof: acted on, less urgently
		f.Severity = "medium"
	}
	reason := hangReasons[h.Cause]
	if h.Mismatch != nil && h.Mismatch.By == "gloo_size" { // gloo's size check named it, not DETAIL
		reason = "collective size mismatch"
	}
	ApplyPlaybook(&f, MatchPlaybook(set, playbooks.Query{Kind: KindHang, Reason: reason}))
	f.Key = f.ID
	return f, true
}

// hangWhat is the list row's label: "all_reduce vs barrier", "compiling", "data_loader".
func hangWhat(h *report.Hang) string {
	if h.Mismatch != nil && len(h.Mismatch.Ops) > 0 {
		var ops []string
		for _, o := range h.Mismatch.Ops {
			ops = append(ops, o.Op)
		}
		return strings.Join(ops, " vs ")
	}
	if w := hangReasons[h.Cause]; w != "" {
		return w
	}
	return "ranks wait"
}

// hangTitle says what was found in one line: the state and the hang's summary.
func hangTitle(h *report.Hang) string {
	lead := map[string]string{report.HangHung: "Hung: ", report.HangNotHung: "Not hung: ", report.HangUnknown: "May hang: "}[h.State]
	if h.Cause == report.CauseCollectiveMismatch {
		lead = "Collectives differ between ranks: "
		if h.State == report.HangHung {
			lead = "Hung, collectives differ between ranks: "
		}
	}
	return text.OneLine(lead+h.Summary, 2*text.TitleMax)
}

// hangDetail is each rank's place, then what the state rests on.
func hangDetail(h *report.Hang) string {
	var b strings.Builder
	b.WriteString(h.Summary)
	b.WriteString("\n")
	for _, r := range h.Ranks {
		who := "rank " + report.Itoa(r.Rank)
		if r.Rank < 0 {
			who = "a process of no known rank"
		}
		line := who + ": "
		switch {
		case r.Compiling:
			line += "compiling"
			if r.Function != "" {
				line += " `" + r.Function + "`"
			}
		case r.WaitingIn != "":
			line += "in " + r.WaitingIn
		case r.Site == "":
			line += "waiting, where not known"
		default:
			line += "in no collective its frames show"
		}
		if r.Site != "" {
			line += " at " + r.Site
			if r.Function != "" {
				line += " in " + r.Function
			}
		}
		if s := r.SinceText(); s != "" {
			line += " (" + s + ")"
		}
		if r.Ended != "" {
			line += "; ended: " + strings.ReplaceAll(r.Ended, "_", " ")
		}
		line += " [" + strings.ReplaceAll(r.From, "_", " ") + "]"
		b.WriteString(line + "\n")
	}
	if h.Mismatch != nil && h.Mismatch.Differ != "" {
		by := "DETAIL: " // TORCH_DISTRIBUTED_DEBUG=DETAIL's words
		if h.Mismatch.By == "gloo_size" {
			by = "gloo's size check: "
		}
		b.WriteString(by + h.Mismatch.Differ + "\n")
	}
	if len(h.Basis) > 0 {
		b.WriteString("Based on: " + strings.Join(h.Basis, "; ") + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
