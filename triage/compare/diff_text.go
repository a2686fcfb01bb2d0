package compare

import (
	"fmt"
	"io"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/text"
)

// WriteDiffText prints a diff readably, fitted to o.
func WriteDiffText(w io.Writer, a, b string, res DiffResult, o text.Options) {
	t := text.NewWriter(w, o)
	t.Items(2, " · ", "torchtriage diff", "A "+a, "B "+b)
	if res.Commands != "" {
		t.Linef(2, "%s: what is new or gone may be the other program's, not a change of one", res.Commands)
	}
	if len(res.Code) > 0 { // the code that ran changed: what is new or gone may be the edit's doing
		words := codeWords(res.Code)
		words[0] = "code that ran, A → B: " + words[0]
		t.Items(2, " · ", words...)
	}
	if res.RankAgreement != nil {
		t.Blank()
		t.Line(2, "Ranks: "+res.RankAgreement.Text())
	}
	if c := res.Steady; c != nil && c.shown() { // compiles after warm-up are no break or recompile item: their own line
		t.Blank()
		t.Line(2, "Steady state (A → B): "+c.Words())
		for _, l := range c.ServingLines() {
			t.Line(4, "  "+l)
		}
	}
	sign := map[string]string{ChangeNew: "+", ChangeGone: "-", ChangeCount: "~", ChangeMoved: "~"}
	last := ""
	for _, it := range res.Items {
		if it.Change != last {
			t.Blank()
			t.Line(0, map[string]string{ChangeNew: "New in B", ChangeGone: "Gone from A",
				ChangeMoved: "Moved (same item at other lines)", ChangeCount: "Changed in count"}[it.Change])
			last = it.Change
		}
		if it.Change == ChangeMoved {
			t.Linef(6, "  ~ %s", movedText(it))
			continue
		}
		line := fmt.Sprintf("  %s %s: %s", sign[it.Change], playbooks.WordsOf(it.Kind).Item, it.Title)
		switch it.Change {
		case ChangeNew:
			line += fmt.Sprintf(" (×%d)", it.After)
		case ChangeGone:
			line += fmt.Sprintf(" (was ×%d)", it.Before)
		default:
			line += fmt.Sprintf(" (×%d → ×%d)", it.Before, it.After)
		}
		if it.Expected { // its coming or going is no fix or regression
			line += " · expected (by design or automatic dynamic's first): no fix, no regression"
		}
		if it.Playbook != "" && it.Change != ChangeGone {
			line += " · playbook " + it.Playbook
		}
		t.Line(6, line)
		if rc := rankChangeText(it.Ranks); rc != "" {
			t.Line(8, "      "+rc)
		}
		if it.From != nil {
			fmt.Fprintf(w, "      %s\n", movedText(it))
		}
	}
	if len(res.NotCompared) > 0 { // a side that could not print a kind: its absence there means nothing
		t.Blank()
		t.Line(0, "Not compared (a side could not show them)")
		for _, nc := range res.NotCompared {
			t.Line(6, "  "+nc)
		}
	}
	if len(res.Items) == 0 {
		var kinds []string
		for _, k := range res.compared {
			kinds = append(kinds, playbooks.WordsOf(k).Items)
		}
		t.Blank()
		lead := "No difference in " // what a side that did not complete never reached is not a difference either way
		switch {
		case res.skippedNew && res.skippedGone:
			lead = "No difference in what both sides reached of "
		case res.skippedGone:
			lead = "Nothing new or more in "
		case res.skippedNew:
			lead = "Nothing gone or fewer in "
		}
		switch n := len(kinds); n {
		case 0:
			t.Line(0, "Nothing compared: no kind was logged on both sides.")
		case 1:
			t.Line(0, lead+kinds[0]+".")
		default:
			t.Line(0, lead+strings.Join(kinds[:n-1], ", ")+" or "+kinds[n-1]+".")
		}
	}
	moved := ""
	if res.Moved > 0 {
		moved = fmt.Sprintf("%d moved, ", res.Moved)
	}
	t.Blank()
	t.Linef(2, "%d new, %d gone, %s%d changed in count, %d unchanged", res.New, res.Gone, moved, res.Changed, res.Unchanged)
}

// rankChangeText words per-rank changes: "new on rank 1; ranks 2–7: 1→2" (nothing for a process without rank).
func rankChangeText(rcs []RankChange) string {
	var parts []string
	for _, c := range rcs {
		if len(c.Ranks) == 0 {
			continue
		}
		switch {
		case c.Before == 0:
			parts = append(parts, "new on "+report.RankWord(c.Ranks))
		case c.After == 0:
			parts = append(parts, "gone from "+report.RankWord(c.Ranks))
		default:
			parts = append(parts, fmt.Sprintf("%s: %d→%d", report.RankWord(c.Ranks), c.Before, c.After))
		}
	}
	return strings.Join(findings.CapList(parts, 6), "; ")
}

// movedText words a move: "graph break print() moved from r.py:4 to r.py:5" (the title for other kinds).
func movedText(it DiffItem) string {
	what := playbooks.WordsOf(it.Kind).Item + ": " + it.Title
	if it.Kind == findings.KindGraphBreak && it.What != "" {
		what = playbooks.WordsOf(it.Kind).Item + " " + it.What
	}
	t := what + " moved from " + strings.Join(findings.CapList(it.From, 4), ", ") + " to " + strings.Join(findings.CapList(it.To, 4), ", ")
	if it.Change == ChangeMoved {
		t += fmt.Sprintf(" (×%d)", it.After)
	}
	return t
}

// codeWords words each change of the code: "repro.py changed (+2 −1)".
func codeWords(cs []runs.CodeChange) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}
