package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/text"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// probeMark is the matrix's cell of a rank no log record names whose probe counted none of what the finding counts
// in (the Per rank table's 0ᵖ, and the summary's "rank 0 as its probe counted …: no graph break").
const probeMark = "0ᵖ"

// probeNone reports whether rank rk, which no log record names, had none of what findings of kind k count in, as
// its probe counted: the report's per_rank_unknown probe counts, the Per rank table's source; of the disagreement
// itself, whether rank agreement compared rk at all (FromProbe: it differs, or it does not).
func probeNone(s *snapshot, rk int, k findings.Kind) bool {
	if k == findings.KindRankDisagreement {
		return slices.ContainsFunc(s.agree.FromProbe, func(pc ranks.ProbeCompared) bool { return pc.Rank == rk })
	}
	if s.report == nil {
		return false
	}
	u, ok := ranks.UnknownRank(s.report.PerRankUnknown, rk)
	return ok && u.ProbeNone(ranks.QuantityOf(k))
}

// rankMatrix draws ranks × findings: one column per finding (numbered, legend below), the records of each rank,
// · where a rank whose records the log holds has none, 0ᵖ where a rank no log record names has none as its probe
// counted (the Per rank table's source), – where what it had is not known. The key names the marks its cells show.
func (m *Model) rankMatrix(s *snapshot, iw int) []string {
	th := m.th
	rows := s.all()
	maxCols := max((iw-8)/3, 1)
	n := min(len(rows), maxCols)
	var unknown bool
	var probed []int // the ranks a 0ᵖ shows
	var lines []string
	for _, rk := range s.ranks {
		var b strings.Builder
		fmt.Fprintf(&b, "   r%-3d", rk)
		for i := 0; i < n; i++ {
			c := rows[i].perRank[rk]
			switch {
			case c > 0:
				mark := fmt.Sprintf("%3s", countMark(c))
				if len(rows[i].ranks) < len(s.ranks) {
					mark = th.warn.Render(mark)
				}
				b.WriteString(mark)
			case s.counted(rk):
				b.WriteString(th.dim.Render("  ·"))
			case probeNone(s, rk, rows[i].kind):
				b.WriteString(th.dim.Render(" " + probeMark))
				if !slices.Contains(probed, rk) {
					probed = append(probed, rk)
				}
			default: // no record names the rank, nor did agreement compare it on this: what it had is not known
				b.WriteString(th.dim.Render("  –"))
				unknown = true
			}
		}
		lines = append(lines, b.String())
	}
	key := " (records per rank, · none; columns numbered below)"
	if unknown {
		key = " (records per rank, · none, – not known; columns numbered below)"
	}
	out := []string{th.title.Render(" Ranks × findings") + th.dim.Render(key)}
	if cells.Width(" Ranks × findings"+key) > iw { // the key on lines of its own, whole
		out = append([]string{th.title.Render(" Ranks × findings")}, legend(th.dim, strings.TrimSpace(key), iw+2)...)
	}
	var head strings.Builder
	head.WriteString("       ")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&head, "%3d", i+1)
	}
	out = append(append(out, head.String()), lines...)
	if len(probed) > 0 {
		out = append(out, legend(th.dim, probeMark+" "+probeLegend(probed), iw+2)...)
	}
	for i := 0; i < n; i++ { // a finding's line that does not fit goes on under its title
		head := fmt.Sprintf("   %3d %-14s ", i+1, kindWord(rows[i].kind))
		text := rows[i].what + " " + rows[i].where
		for j, l := range cells.Wrap(text, max(iw-cells.Width(head), 12)) {
			if j == 0 {
				l = head + strings.Replace(l, rows[i].where, th.dim.Render(rows[i].where), 1)
			} else {
				l = strings.Repeat(" ", cells.Width(head)) + th.dim.Render(l)
			}
			out = append(out, l)
		}
	}
	if len(rows) > n {
		out = append(out, th.dim.Render(fmt.Sprintf("   … %d more findings do not fit", len(rows)-n)))
	}
	return out
}

// probeLegend words the 0ᵖ of ranks: "none, as rank 0's probe counted (no log record names it)".
func probeLegend(ranks []int) string {
	if len(ranks) == 1 {
		return fmt.Sprintf("none, as rank %d's probe counted (no log record names it)", ranks[0])
	}
	return fmt.Sprintf("none, as the probes of ranks %s counted (no log record names them)", text.RankRanges(ranks))
}
