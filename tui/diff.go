package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/text"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// runDiff compares two runs of the session as `torchtriage compare A B` does (triage.Compare: versions,
// settings, compile time per phase, frame and rank, caches, the metric, with its verdict), then their findings
// (triage.Diff: new, gone, changed per rank).
type runDiff struct {
	from, to *runView
	res      compare.DiffResult
	compare  []string // WriteCompareText's lines
	scroll   scrollState
}

func diffRuns(from, to *runView) *runDiff {
	d := &runDiff{from: from, to: to, res: compare.Diff(from.snap.analysis, to.snap.analysis)}
	var b strings.Builder
	a, z := compareSide(from), compareSide(to)
	compare.WriteCompareText(&b, a.Name, z.Name, compare.Compare(a, z))
	d.compare = strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	return d
}

// compareSide is what the comparison needs of a run: its analysis, probe files and metric.
func compareSide(r *runView) compare.Side {
	an := r.snap.analysis
	if v := runTorch(r); v != "" && an != nil && an.Report != nil && an.Report.TorchVersion == nil {
		// the version the header states for the run (its probe, its meta): compare says the same
		cp, rep := *an, *an.Report
		rep.TorchVersion, cp.Report = &v, &rep
		an = &cp
	}
	return compare.Side{Name: fmt.Sprintf("run %d (%s)", r.id, orText(r.meta.Preset, r.label)),
		Analysis: an, Probes: r.probes, Metric: r.meta.Metric}
}

// diffLatest diffs the run on screen with the run before it (or the two runs marked in the runs view).
func (m *Model) diffLatest() {
	from, to := m.diffPair()
	switch {
	case (from == nil || to == nil) && m.opt.mode == modeOpen:
		m.flash = "diff needs two runs; open shows one: use torchtriage diff A B"
		return
	case from == nil || to == nil:
		m.flash = "diff needs two runs with findings: rerun with r (or mark two runs in h with space)"
		return
	}
	m.diff = diffRuns(from, to)
	if m.screen != screenDiff {
		m.toggle(screenDiff)
	}
}

func (m *Model) diffPair() (*runView, *runView) {
	if len(m.runsv.marked) == 2 {
		a, b := m.runByID(m.runsv.marked[0]), m.runByID(m.runsv.marked[1])
		if a != nil && b != nil && a.snap != nil && b.snap != nil && a.snap.analysis != nil && b.snap.analysis != nil {
			if a.id > b.id {
				a, b = b, a
			}
			return a, b
		}
	}
	to := m.cur
	if to == nil || to.snap == nil || to.snap.analysis == nil {
		return nil, nil
	}
	i := slices.Index(m.runs, to)
	for j := i - 1; j >= 0; j-- {
		if m.runs[j].snap != nil && m.runs[j].snap.analysis != nil {
			return m.runs[j], to
		}
	}
	return nil, nil
}

func (m *Model) runByID(id int) *runView {
	for _, r := range m.runs {
		if r.id == id {
			return r
		}
	}
	return nil
}

// diffText: what is new, gone and changed between two runs, with per-rank counts.
func (m *Model) diffText() (string, []string) {
	th := m.th
	d := m.diff
	if d == nil {
		return "Diff", []string{" no diff: press d"}
	}
	res := d.res
	var lines []string
	for _, l := range d.compare {
		for _, wl := range cells.Wrap(clean(l), max(m.w-4, 20)) {
			lines = append(lines, " "+wl)
		}
	}
	lines = append(lines, "", th.title.Render(" Findings (torchtriage diff)"))
	lines = append(lines, fmt.Sprintf(" %s · %s · %s · %d unchanged", th.bad.Render(fmt.Sprintf("%d new", res.New)),
		th.good.Render(fmt.Sprintf("%d gone", res.Gone)), th.warn.Render(fmt.Sprintf("%d changed", res.Changed)), res.Unchanged), "")
	if ra := res.RankAgreement; ra != nil { // the diff's words (compare.RankAgreementChange)
		st := th.warn
		if ra.Change == "gone" {
			st = th.good
		} else if ra.Change == "new" {
			st = th.bad
		}
		for i, wl := range cells.Wrap("Ranks: "+ra.Text(), max(m.w-4, 20)) {
			if i == 0 {
				wl = st.Render(wl)
			}
			lines = append(lines, " "+wl)
		}
		lines = append(lines, "")
	}
	for _, nc := range res.NotCompared { // a run that could not print a kind: nothing of it is new or gone
		lines = append(lines, th.dim.Render(" not compared: "+nc))
	}
	switch {
	case len(res.Items) == 0 && len(res.NotCompared) == 0:
		lines = append(lines, " the two runs have the same findings")
	case len(res.Items) == 0:
		lines = append(lines, " the same findings in what both runs logged")
	}
	for _, it := range res.Items {
		mark, st := "~", th.warn
		switch it.Change {
		case compare.ChangeNew:
			mark, st = "+", th.bad
		case compare.ChangeGone:
			mark, st = "-", th.good
		}
		lines = append(lines, fmt.Sprintf(" %s %-16s %s", st.Render(mark+" "+it.Change), playbooks.WordsOf(it.Kind).Item, it.Title))
		detail := fmt.Sprintf("       records %d → %d", it.Before, it.After)
		for _, rc := range it.Ranks {
			if len(rc.Ranks) > 0 {
				detail += fmt.Sprintf(" · ranks %s: %d → %d", text.RankRanges(rc.Ranks), rc.Before, rc.After)
			}
		}
		lines = append(lines, th.dim.Render(detail))
	}
	title := fmt.Sprintf("Compare · run %d (%s) → run %d (%s)", d.from.id, d.from.meta.Preset, d.to.id, d.to.meta.Preset)
	return title, lines
}

func (m *Model) diffScroll() *scrollState {
	if m.diff == nil {
		return &m.helpv
	}
	return &m.diff.scroll
}
