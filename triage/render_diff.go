package triage

import (
	"fmt"
	"io"
	"strings"
)

// WriteDiffText prints a diff readably, fitted to o.
func WriteDiffText(w io.Writer, a, b string, res DiffResult, o TextOptions) {
	t := NewTextWriter(w, o)
	t.Items(2, " · ", "torchtriage diff", "A "+a, "B "+b)
	sign := map[string]string{ChangeNew: "+", ChangeGone: "-", ChangeCount: "~"}
	last := ""
	for _, it := range res.Items {
		if it.Change != last {
			t.Blank()
			t.Line(0, map[string]string{ChangeNew: "New in B", ChangeGone: "Gone from A", ChangeCount: "Changed in count"}[it.Change])
			last = it.Change
		}
		line := fmt.Sprintf("  %s %s: %s", sign[it.Change], KindWord(it.Kind), it.Title)
		switch it.Change {
		case ChangeNew:
			line += fmt.Sprintf(" (×%d)", it.After)
		case ChangeGone:
			line += fmt.Sprintf(" (was ×%d)", it.Before)
		default:
			line += fmt.Sprintf(" (×%d → ×%d)", it.Before, it.After)
		}
		if it.Playbook != "" && it.Change != ChangeGone {
			line += " · playbook " + it.Playbook
		}
		t.Line(6, line)
		if rc := rankChangeText(it.Ranks); rc != "" {
			t.Line(8, "      "+rc)
		}
	}
	if len(res.Items) == 0 {
		t.Blank()
		t.Line(0, "No difference in graph breaks, recompile reasons, limit hits, CUDA-graph skips or errors.")
	}
	t.Blank()
	t.Linef(2, "%d new, %d gone, %d changed in count, %d unchanged", res.New, res.Gone, res.Changed, res.Unchanged)
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
			parts = append(parts, "new on "+rankWord(c.Ranks))
		case c.After == 0:
			parts = append(parts, "gone from "+rankWord(c.Ranks))
		default:
			parts = append(parts, fmt.Sprintf("%s: %d→%d", rankWord(c.Ranks), c.Before, c.After))
		}
	}
	return strings.Join(capList(parts, 6), "; ")
}
