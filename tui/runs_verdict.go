package tui

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/story"
)

// The runs view's words of how each run ended and what its analysis concluded: the report's verdict, and counts
// worded as the bringup log words them (rowCounts: "≥" where the run did not complete, what it never reached is
// not counted).

// rowAnalysis is the analysis a row's words come from: the story's of a finished stored run, else this session's.
func rowAnalysis(r runRow) *triage.Analysis {
	if r.st != nil && !r.live() {
		if a := r.st.Analysis(); a != nil {
			return a
		}
	}
	if r.view != nil && r.view.snap != nil {
		return r.view.snap.analysis
	}
	return nil
}

// rowEnded says how an opened input's run ended, as the verdict knows it: "exited with code 1", "stopped by
// torchtriage (timed out after 8s)", "1 process died of a runtime error" (logs alone), "exited 0"; "" where
// nothing says (logs alone with no process dying: the verdict says "from the log alone").
func rowEnded(r runRow) string {
	a := rowAnalysis(r)
	switch {
	case a == nil:
		return ""
	case a.Unfinished() != "":
		return a.Unfinished()
	case a.Run != nil && a.Run.Outcome == report.OutcomeCompleted:
		code := 0
		if a.Run.ExitCode != nil {
			code = *a.Run.ExitCode
		}
		return fmt.Sprintf("exited %d", code)
	}
	return ""
}

// rowVerdict is "verdict: not steady: 1 process crashed; 1 unique graph", the report's, in lines of w cells
// (hanging: wrapped, never cut); nothing for a run still going or one without an analysis.
func (m *Model) rowVerdict(r runRow, w int) []string {
	a := rowAnalysis(r)
	if a == nil || r.live() || a.Verdict.Summary == "" {
		return nil
	}
	st := m.th.warn
	switch a.Verdict.State {
	case triage.StateSteady:
		st = m.th.good
	case triage.StateNoEvidence, triage.StateStopped:
		st = m.th.dim
	}
	return hanging("verdict: "+clean(a.Verdict.Summary), w, st)
}

// joinDot joins the parts that are not empty with " · ".
func joinDot(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
}

// rowCounts is a row's counts as one line (rowCountItems joined).
func rowCounts(r runRow) string { return strings.Join(rowCountItems(r), " · ") }

// rowCountItems are a row's counts in the words of the bringup log (story.WordCounts and story.Uncounted, one
// rule for both: exact, "≥N" of a run that did not complete or is still going, "at least N", "not logged", "not
// in the log", "nothing counted"), with the short nouns of an 80-column list and the kinds missing for one reason
// in one item (story.Grouped, as the log's text line): breaks, recompiles and limit hits, skips and compile
// errors where there are some, and the ranks of more than one. Each item is kept whole on screen.
func rowCountItems(r runRow) []string {
	a := rowAnalysis(r)
	switch {
	case a == nil && r.st != nil && r.view == nil:
		return []string{"no logs to analyse"}
	case a == nil || a.Report == nil:
		return []string{"no findings yet"}
	}
	keys := []string{story.CountGraphBreaks, story.CountRecompiles, story.CountLimitHits}
	if c := a.Report.Counts; c.CudagraphSkips > 0 {
		keys = append(keys, story.CountCudagraphSkips)
	}
	if a.Report.Counts.CompileErrors > 0 {
		keys = append(keys, story.CountCompileErrors)
	}
	parts := countItems(a, keys...)
	if n := len(a.Evidence.Ranks); n > 1 && story.Uncounted(a) == "" {
		parts = append(parts, plural(n, "rank"))
	}
	return parts
}

// countItems are an analysis's counts of the kinds keys as items of a line, by the bringup log's rules: the one
// phrase that stands for them all where nothing was counted (story.Uncounted: "no torch output yet", "nothing
// compiled (…)"), else each kind's short words (story.WordCounts), the kinds missing for one reason as one item
// (story.Grouped). The runs list and the ranks strip both word counts with it.
func countItems(a *triage.Analysis, keys ...string) []string {
	if none := story.Uncounted(a); none != "" {
		return []string{none}
	}
	ws := story.WordCounts(a, story.ShortNouns)
	shown := make([]story.CountWords, 0, len(keys))
	for _, k := range keys {
		shown = append(shown, story.WordOf(ws, k))
	}
	return story.Grouped(shown, story.ShortNouns)
}

// rankCount is one rank's count of a kind in the ranks strip, " 3b", " ≥1rc", by the rules of the run's counts
// (story.Rules); "" where the kind has no count (not logged, not in the log: the agreement's "not compared" and the
// Ranks view's legend say why).
func rankCount(rl story.Rules, key string, n int, unit string) string {
	if cw := rl.Word(key, n, story.ShortNouns); cw.Counted() {
		return " " + cw.Value + unit
	}
	return ""
}
