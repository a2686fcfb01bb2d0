package tui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
	"github.com/torchtriage/torchtriage/triage/story"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// guideState is the cursor of the checklist screen.
type guideState struct{ idx int }

// compiledRun is the run the checklist judges: the one on screen unless it is the eager baseline, then the
// newest finished compiled run.
func (m *Model) compiledRun() *runView {
	if m.cur != nil && m.cur.meta.Preset != "eager" {
		return m.cur
	}
	for i := len(m.runs) - 1; i >= 0; i-- {
		if r := m.runs[i]; r.done && r.snap != nil && r.meta.Preset != "eager" {
			return r
		}
	}
	return nil
}

// checklist is what the session knows, in the checklist's terms.
func (m *Model) checklist() playbooks.State {
	r := m.compiledRun()
	if r == nil || r.snap == nil {
		return playbooks.State{}
	}
	s := r.snap
	st := s.analysis.State()
	if c, ok := m.baselineComparison(); ok {
		st.BaselineMeasured = c.Basis == "metric" // wall times are an estimate, not the step times the step asks for
		if !st.BaselineMeasured {
			st.BaselineWhy = c.Verdict
		}
	}
	if prev := m.previousCompiled(r); prev != nil && r.done {
		st.Rerun = fmt.Sprintf("run %d reran run %d's command", r.id, prev.id)
	}
	if prev := m.previousCompiled(r); prev != nil && r.done && s.analysis.Verdict.Steady {
		// a steady rerun that compiled nothing new, where both runs logged what it compares
		d := compare.Diff(prev.snap.analysis, s.analysis)
		logged := func(a *triage.Analysis) bool { return a.Evidence.GraphBreaksLogged && a.Evidence.RecompilesLogged }
		st.SteadyRerun = d.New == 0 && len(d.NotCompared) == 0 && logged(prev.snap.analysis) && logged(s.analysis) &&
			s.report.Counts.CudagraphSkips == 0
	}
	return st
}

// baselinePair is the newest clean compiled run and the newest clean eager run of the same command
// (story.SameCommand): another program's timing is no baseline.
func (m *Model) baselinePair() (eager, compiled *runView) {
	clean := func(r *runView) bool { return r.done && r.hasMeta && r.meta.ExitCode != nil && *r.meta.ExitCode == 0 }
	for i := len(m.runs) - 1; i >= 0 && compiled == nil; i-- {
		if r := m.runs[i]; clean(r) && r.meta.Preset != "eager" {
			compiled = r
		}
	}
	for i := len(m.runs) - 1; i >= 0 && compiled != nil; i-- {
		if r := m.runs[i]; clean(r) && r.meta.Preset == "eager" && story.SameCommand(r.meta, compiled.meta) {
			return r, compiled
		}
	}
	return nil, compiled
}

// previousCompiled is the compiled run of the same command before r (a rerun's base: story.SameCommand).
func (m *Model) previousCompiled(r *runView) *runView {
	i := slices.Index(m.runs, r)
	for j := i - 1; j >= 0; j-- {
		if p := m.runs[j]; p.done && p.snap != nil && p.meta.Preset != "eager" && story.SameCommand(p.meta, r.meta) {
			return p
		}
	}
	return nil
}

// nextStep is the proposed step and the ids of the steps done.
func (m *Model) nextStep() (playbooks.Step, []string) { return playbooks.NextStep(m.checklist()) }

// doneCount words the checklist's progress: "2 of 6 done" (not applicable steps are not done).
func doneCount(done []string) string { return fmt.Sprintf("%d of 6 done", len(done)) }

func (m *Model) openGuide() {
	step, _ := m.nextStep()
	m.guide.idx = max(step.N-1, 0)
	if step.ID == "" {
		m.guide.idx = len(playbooks.Checklist()) - 1
	}
	if step.N == 0 && step.Preset != "" { // a first step that relaunches (the hang's distributed run): on the step of its preset
		if i := slices.IndexFunc(playbooks.Checklist(), func(s playbooks.Step) bool { return s.Preset == step.Preset }); i >= 0 {
			m.guide.idx = i
		}
	}
	m.toggle(screenGuide)
}

// runStep relaunches with the selected step's preset (asking first if a run is going).
func (m *Model) runStep() tea.Cmd {
	st := playbooks.Checklist()[m.guide.idx]
	if m.opt.mode == modeOpen {
		m.flash = fmt.Sprintf("step %d needs a run with preset %s: use torchtriage run -- CMD", st.N, st.Preset)
		return nil
	}
	m.pre.choose(st.Preset)
	m.screen = screenMain
	return m.askRelaunch()
}

// guideBody draws the six steps: done ones green with ✓ (only with the evidence for it), the proposed one marked,
// the others "not run yet" or "not applicable" with why, each with its done-when.
func (m *Model) guideBody(w, h int) []string {
	th := m.th
	state := m.checklist()
	step, done := playbooks.NextStep(state)
	var lines []string
	if step.ID != "" && step.N == 0 { // a step before the six (playbooks.firstSteps: rejected TORCH_LOGS, a crash, a failure, a stop, no torch output)
		for _, l := range hang(step.Title+": "+state.Why(step), w-3, "▸ ", "  ") { // the title says "first"
			lines = append(lines, th.warn.Render(l))
		}
		words := "Done when: " + step.DoneWhen + " Stop when: " + step.StopWhen
		if step.Preset != "" && m.opt.mode != modeOpen {
			words += " Enter relaunches with preset " + step.Preset + " (" + step.TorchLogs + ")."
		}
		if step.ID == playbooks.WrongStep.ID && m.opt.mode == modeRun {
			words += " L runs the backend ladder on this repro (torchtriage ladder): the first backend that goes wrong."
		}
		for _, l := range cells.Wrap(words, w-8) {
			lines = append(lines, "     "+th.dim.Render(l))
		}
	}
	cursorLine := 0
	for i, p := range playbooks.Progress(state) {
		st := p.Step
		mark, style, status := "  ", th.plain, p.Status
		switch {
		case p.Status == playbooks.StatusDone:
			mark, style = "✓ ", th.good
		case st.ID == step.ID:
			mark, style = "▸ ", th.warn
		case p.Status == playbooks.StatusNotApplicable:
			mark, style = "– ", th.dim
		}
		if p.Why != "" {
			status += ": " + p.Why
		}
		// the status whole: on the title's line where it fits, else on lines of its own (it was cut with "…")
		head := fmt.Sprintf("%s%d/6 %s  (preset %s)", mark, st.N, st.Title, st.Preset)
		var more []string
		if full := head + " · " + status; cells.Width(full) <= w-3 {
			head = full
		} else {
			more = cells.Wrap(status, w-8)
		}
		if i == m.guide.idx {
			cursorLine = len(lines)
			head = th.sel.Render(cells.Fit(head, w-3))
		} else {
			head = style.Render(head)
		}
		lines = append(lines, head)
		for _, l := range more {
			lines = append(lines, "     "+style.Render(l))
		}
		for _, l := range cells.Wrap("Goal: "+st.Goal, w-8) {
			lines = append(lines, "     "+l)
		}
		for _, l := range cells.Wrap("Done when: "+st.DoneWhen, w-8) {
			lines = append(lines, "     "+style.Render(l))
		}
		if st.ID == "baseline" {
			if v := m.baselineVerdict(); v != "" && v != p.Why { // the status line may say the verdict already
				for _, l := range cells.Wrap(v, w-8) {
					lines = append(lines, "     "+th.title.Render(l))
				}
			}
		}
		if i == m.guide.idx {
			for _, l := range cells.Wrap("Stop when: "+st.StopWhen, w-8) {
				lines = append(lines, "     "+th.dim.Render(l))
			}
		}
	}
	title := "Diagnose a compile regression · " + doneCount(done) + ", the rest not applicable"
	switch {
	case step.ID != "" && step.N == 0:
		title = "Diagnose a compile regression · " + doneCount(done) + " · next: " + step.Phrase()
	case step.ID != "": // the next step's title where it fits (the box has w-6 cells for it), else its number
		title = fmt.Sprintf("Diagnose a compile regression · %s · next: step %d/6 %s", doneCount(done), step.N, step.Title)
		for _, t := range []string{fmt.Sprintf("Diagnose a compile regression · %s · next: step %d/6", doneCount(done), step.N),
			fmt.Sprintf("Diagnose a compile regression · next: step %d/6", step.N)} {
			if cells.Width(title) > w-6 {
				title = t
			}
		}
	}
	return th.box(title, scrollTo(lines, cursorLine, h-2), w, h, true)
}

// baselineComparison compares the newest eager and compiled runs (keep compile only if ≥5% better, on the metric
// or on wall time less the compile time the probe measured; else inconclusive).
func (m *Model) baselineComparison() (runs.Comparison, bool) {
	eager, compiled := m.baselinePair()
	if eager == nil || compiled == nil {
		return runs.Comparison{}, false
	}
	return runs.CompareBaseline(eager.meta, compiled.meta, !m.opt.lowerBetter, session.CompileSeconds(compiled.probes)), true
}

// baselineVerdict is the comparison's line, "" without a pair of runs.
func (m *Model) baselineVerdict() string {
	c, ok := m.baselineComparison()
	if !ok {
		return ""
	}
	if !c.HasMetric && (c.Basis != "" || c.Inconclusive) && m.storeDir() != "" {
		return c.Verdict + " (m sets it here)"
	}
	return c.Verdict
}
