package tui

import (
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/story"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// uncounted says why a finished run's pane counts nothing ("no torch output: nothing counted", "graph breaks were
// not logged (TORCH_LOGS)"), "" when its count stands: the report's own rules and words (Analysis.NoTorchText,
// UncountedWhy).
func (s *snapshot) uncounted(p pane) string {
	if s == nil || s.analysis == nil {
		return ""
	}
	a := s.analysis
	switch {
	case !a.Evidence.TorchSeen:
		return a.NoTorchText()
	case a.NothingCountedWhy() != "": // nothing compiled, so nothing could break or recompile: no count stands
		return a.Evidence.NothingCompiled()
	case p == paneRecompiles:
		return a.UncountedWhy(findings.KindRecompile)
	}
	return a.UncountedWhy(findings.KindGraphBreak)
}

// notCountedTitle is the title of a finished run's pane that counts nothing (uncounted), head and then: where the
// run counted nothing at all, "not counted" and why, as the report's rules say it (story.NotCounted: "Graph breaks
// · not counted (nothing compiled)"); else, or where that is wider than w, "not counted" (the pane's body says
// why). "" where the pane's count stands.
func (s *snapshot) notCountedTitle(p pane, head string, w int) string {
	if s.uncounted(p) == "" {
		return ""
	}
	if why := story.NotCounted(s.analysis); why != "" && cells.Width(head+" · "+why) <= w {
		return head + " · " + why
	}
	return head + " · not counted"
}

// titleCount is a count of kind key (story.CountGraphBreaks, …) as the lists' titles show it, by the rules the
// report, the ranks strip and the runs list word counts by (story.Rules): "3"; "≥3" where the run did not complete
// or still runs; "at least 3" where some printed while the kind was not logged. counted is false where no count
// stands (not logged, not in the log, nothing counted).
func (s *snapshot) titleCount(key string, n int) (text string, counted bool) {
	if s == nil || s.analysis == nil || s.analysis.Report == nil {
		return strconv.Itoa(n), true
	}
	cw := story.RulesOf(s.analysis).Word(key, n, story.ShortNouns)
	switch {
	case !cw.Counted():
		return "", false
	case strings.HasPrefix(cw.Words, "at least "): // the report's words for it
		return "at least " + strconv.Itoa(n), true
	}
	return cw.Value, true
}
