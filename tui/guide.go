package tui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/session"
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
	for _, p := range r.probes {
		if v, ok := p.Config["inductor.triton.cudagraphs"].(bool); ok && v {
			st.ReduceOverhead = true
		}
	}
	eager, compiled := m.baselinePair()
	st.HasBaseline = eager != nil && compiled != nil
	if prev := m.previousCompiled(r); prev != nil && r.done {
		d := triage.Diff(prev.snap.analysis, s.analysis)
		st.SteadyRerun = d.New == 0 && s.report.Counts.CudagraphSkips == 0
	}
	return st
}

// baselinePair is the newest clean eager run and the newest clean compiled run.
func (m *Model) baselinePair() (eager, compiled *runView) {
	for i := len(m.runs) - 1; i >= 0; i-- {
		r := m.runs[i]
		if !r.done || !r.hasMeta || r.meta.ExitCode == nil || *r.meta.ExitCode != 0 {
			continue
		}
		if r.meta.Preset == "eager" && eager == nil {
			eager = r
		} else if r.meta.Preset != "eager" && compiled == nil {
			compiled = r
		}
	}
	return eager, compiled
}

// previousCompiled is the compiled run before r.
func (m *Model) previousCompiled(r *runView) *runView {
	i := slices.Index(m.runs, r)
	for j := i - 1; j >= 0; j-- {
		if p := m.runs[j]; p.done && p.snap != nil && p.meta.Preset != "eager" {
			return p
		}
	}
	return nil
}

// nextStep is the proposed step and the ids of the steps already met.
func (m *Model) nextStep() (playbooks.Step, []string) { return playbooks.NextStep(m.checklist()) }

func (m *Model) openGuide() {
	step, _ := m.nextStep()
	m.guide.idx = max(step.N-1, 0)
	if step.ID == "" {
		m.guide.idx = len(playbooks.Checklist()) - 1
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

// guideBody draws the six steps: met ones green with ✓, the proposed one marked, each with its done-when.
func (m *Model) guideBody(w, h int) []string {
	th := m.th
	step, done := m.nextStep()
	var lines []string
	cursorLine := 0
	for i, st := range playbooks.Checklist() {
		mark, style := "  ", th.plain
		switch {
		case slices.Contains(done, st.ID):
			mark, style = "✓ ", th.good
		case st.ID == step.ID:
			mark, style = "▸ ", th.warn
		}
		head := fmt.Sprintf("%s%d/6 %s  (preset %s)", mark, st.N, st.Title, st.Preset)
		if i == m.guide.idx {
			cursorLine = len(lines)
			head = th.sel.Render(fit(head, w-3))
		} else {
			head = style.Render(head)
		}
		lines = append(lines, head)
		for _, l := range wrapText("Goal: "+st.Goal, w-8) {
			lines = append(lines, "     "+l)
		}
		for _, l := range wrapText("Done when: "+st.DoneWhen, w-8) {
			lines = append(lines, "     "+style.Render(l))
		}
		if st.ID == "baseline" {
			if v := m.baselineVerdict(); v != "" {
				lines = append(lines, "     "+th.title.Render(cut(v, w-8)))
			}
		}
		if i == m.guide.idx {
			for _, l := range wrapText("Stop when: "+st.StopWhen, w-8) {
				lines = append(lines, "     "+th.dim.Render(l))
			}
		}
	}
	title := "Diagnose a compile regression · all steps met"
	if step.ID != "" {
		title = fmt.Sprintf("Diagnose a compile regression · next: step %d/6 %s", step.N, step.Title)
	}
	return th.box(title, scrollTo(lines, cursorLine, h-2), w, h, true)
}

// baselineVerdict compares the newest eager and compiled runs (keep compile only if ≥5% better).
func (m *Model) baselineVerdict() string {
	eager, compiled := m.baselinePair()
	if eager == nil || compiled == nil {
		return ""
	}
	return session.CompareBaseline(eager.meta, compiled.meta, !m.opt.lowerBetter).Verdict
}
