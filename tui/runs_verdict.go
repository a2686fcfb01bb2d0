package tui

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
)

// The runs view's words of how each run ended and what its analysis concluded: the report's verdict, and counts
// that say "≥" where the run did not complete (what it never reached is not counted), as the bringup log's trend.

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
	case a.Run != nil && a.Run.Outcome == triage.OutcomeCompleted:
		code := 0
		if a.Run.ExitCode != nil {
			code = *a.Run.ExitCode
		}
		return fmt.Sprintf("exited %d", code)
	}
	return ""
}

// verdictLine is "verdict: not steady: 1 process crashed; 1 unique graph", the report's, in at most w cells; ""
// for a run still going or one without an analysis.
func (m *Model) verdictLine(r runRow, w int) string {
	a := rowAnalysis(r)
	if a == nil || r.live() || a.Verdict.Summary == "" {
		return ""
	}
	st := m.th.warn
	switch a.Verdict.State {
	case triage.StateSteady:
		st = m.th.good
	case triage.StateNoEvidence, triage.StateStopped:
		st = m.th.dim
	}
	return st.Render(cut("verdict: "+clean(a.Verdict.Summary), w))
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

// floors marks the numbers of counts a run that did not complete reached ("≥0 breaks"); the words of a count
// that is no count ("breaks not logged") stay as they are.
func floors(parts []string, a *triage.Analysis, live bool) []string {
	if a == nil || live || a.Unfinished() == "" {
		return parts
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = triage.Floor(p)
	}
	return out
}

// rowCounts: the story's counts of a finished run (they know what its TORCH_LOGS did not log), else the live ones.
func rowCounts(r runRow) string {
	if st := r.st; st != nil && st.Counts != nil && !r.live() {
		if !st.Logged.Torch {
			return "no torch output: nothing counted" // the story's words: its zeros mean nothing
		}
		if a := st.Analysis(); a != nil && a.Evidence.NothingCompiled() != "" {
			return compileOffCounts + " (" + a.Evidence.NothingCompiledShort() + ")"
		}
		c := st.Counts
		breaks, recompiles := triage.Tally(c.GraphBreaks, triage.RunLogging(st.Logged.GraphBreaks), "break"), triage.Tally(c.Recompiles, triage.RunLogging(st.Logged.Recompiles), "recompile")
		parts := []string{breaks, recompiles, plural(c.LimitHits, "limit hit")}
		if c.CudagraphSkips > 0 {
			parts = append(parts, plural(c.CudagraphSkips, "skip"))
		}
		if c.CompileErrors > 0 {
			parts = append(parts, plural(c.CompileErrors, "error"))
		}
		parts = floors(parts, st.Analysis(), false)
		if c.Ranks > 1 {
			parts = append(parts, plural(c.Ranks, "rank"))
		}
		return strings.Join(parts, " · ")
	}
	if r.view == nil || r.view.snap == nil {
		if r.st != nil && r.view == nil {
			return "no logs to analyse"
		}
		return "no findings yet"
	}
	c := r.view.snap.report.Counts
	breaks, recompiles := plural(c.GraphBreaks, "break"), plural(c.Recompiles, "recompile")
	if a := r.view.snap.analysis; a != nil { // the counts lines' rules: a zero that could not be otherwise is no count
		ev := a.Evidence
		switch {
		case !ev.TorchSeen && r.live():
			return "no torch output yet"
		case !ev.TorchSeen:
			return a.NoTorchText()
		case ev.NothingCompiled() != "":
			return compileOffCounts + " (" + ev.NothingCompiledShort() + ")"
		}
		breaks = triage.Tally(c.GraphBreaks, ev.LoggingOf(ev.GraphBreaksLogged), "break")
		recompiles = triage.Tally(c.Recompiles, ev.LoggingOf(ev.RecompilesLogged), "recompile")
	}
	parts := []string{breaks, recompiles, plural(c.RecompileLimitHits, "limit hit")}
	if c.CudagraphSkips > 0 {
		parts = append(parts, plural(c.CudagraphSkips, "skip"))
	}
	if c.CompileErrors > 0 {
		parts = append(parts, plural(c.CompileErrors, "error"))
	}
	return strings.Join(floors(parts, r.view.snap.analysis, r.live()), " · ")
}

// compileOffCounts stands for the counts of a run that compiled nothing (torch.compile off, or no frame reached
// it): its zeros count nothing (the verdict says why).
const compileOffCounts = "nothing compiled"
