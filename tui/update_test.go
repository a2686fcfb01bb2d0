package tui

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/triage/session"
)

func TestTabMovesFocusAcrossListsAndPresetBar(t *testing.T) {
	m := liveModel(t, 120, 32)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	if !strings.Contains(plain(m), "┏━ Graph breaks") {
		t.Fatalf("breaks list should start focused:\n%s", plain(m))
	}
	press(m, "tab")
	if m.focus != paneRecompiles || !strings.Contains(plain(m), "┏━ Recompiles") || strings.Contains(plain(m), "┏━ Graph breaks") {
		t.Fatalf("tab should focus the recompiles list:\n%s", plain(m))
	}
	press(m, "tab")
	if m.focus != panePresets {
		t.Fatalf("second tab: focus %v, want the preset bar", m.focus)
	}
	press(m, "tab")
	if m.focus != paneBreaks {
		t.Fatalf("third tab: focus %v, want breaks again", m.focus)
	}
	press(m, "shift+tab")
	if m.focus != panePresets {
		t.Fatalf("shift+tab: focus %v, want the preset bar", m.focus)
	}
}

func TestSelectionFollowsItsFindingWhenTheListChanges(t *testing.T) {
	m := liveModel(t, 120, 32)
	feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", -1)
	// the live run's recompiles: step, then the resume at line 10 (its breaks list has print() alone: its ranks
	// differ so far, which is no rank-disagreement row)
	press(m, "tab", "down")
	sel := m.selected()
	if sel == nil || sel.what != "step (resume @10)" {
		t.Fatalf("second recompile row should be the resume, got %+v", sel)
	}
	// the same run gets a new snapshot in which another finding sorts above it
	r := m.cur
	snap := *r.snap
	extra := *snap.recomps[1]
	extra.key, extra.what, extra.count = "synthetic:first", "synthetic()", 99
	snap.recomps = append([]*row{&extra}, snap.recomps...)
	m.Update(batchMsg{session.Batch{RunID: r.id, Log: r.log, Analysis: snap.analysis, View: [2][]*row{snap.breaks, snap.recomps}}})
	if got := m.selected(); got == nil || got.key != sel.key {
		t.Fatalf("selection moved to %+v, want %s", got, sel.key)
	}
	if m.lists[paneRecompiles].idx != 2 {
		t.Errorf("cursor index = %d, want 2 (one row was inserted above)", m.lists[paneRecompiles].idx)
	}
}

func TestFuzzyFilterNarrowsTheFocusedListAndHighlights(t *testing.T) {
	m := liveModel(t, 120, 32)
	m.opt.color = true
	m.th = newTheme(true, true)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	press(m, "/", "p", "r", "n")
	ls := &m.lists[paneBreaks]
	if ls.len() != 1 || ls.at(0).what != "print()" {
		var got []string
		for i := 0; i < ls.len(); i++ {
			got = append(got, ls.at(i).what)
		}
		t.Fatalf("filter prn kept %v, want only print()", got)
	}
	screen := m.render()
	if !strings.Contains(ansi.Strip(screen), "/prn 1 of 3") {
		t.Errorf("title should show the filter and its count:\n%s", ansi.Strip(screen))
	}
	// the matched letters are styled: the row is not one plain run of text
	line := lineWith(t, screen, "print()")
	if !strings.Contains(line, "\x1b[") || strings.Contains(line, "print()") {
		t.Errorf("matched letters of print() are not highlighted separately: %q", line)
	}
	press(m, "enter") // keep the filter, leave the input
	if m.typing || ls.pattern != "prn" {
		t.Fatalf("enter should keep the filter: typing=%v pattern=%q", m.typing, ls.pattern)
	}
	press(m, "esc")
	if ls.pattern != "" || ls.len() != 3 {
		t.Fatalf("esc should clear the filter: pattern %q, %d rows", ls.pattern, ls.len())
	}
}

func lineWith(t *testing.T, screen, plainText string) string {
	t.Helper()
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(ansi.Strip(l), plainText) {
			return l
		}
	}
	t.Fatalf("no line with %q", plainText)
	return ""
}

func TestDetailShowsPlaybookAndJumpsToTheRecordInTheLog(t *testing.T) {
	m := liveModel(t, 100, 40)
	r := feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	press(m, "down") // print()
	press(m, "enter")
	if m.screen != screenDetail {
		t.Fatal("enter should open the detail view")
	}
	screen := plain(m)
	for i := 0; i < 10; i++ {
		press(m, "pgdown")
		screen += plain(m)
	}
	m.det.scroll.off = 0
	for _, want := range []string{"print() inside a compiled region breaks the graph", "Evidence", "Related playbooks"} {
		if !strings.Contains(screen, want) {
			t.Errorf("detail lacks %q:\n%s", want, screen)
		}
	}
	press(m, "down") // the second evidence record
	ev := m.selected().evidence[1]
	press(m, "l")
	if m.screen != screenLog {
		t.Fatalf("l should jump to the log, screen %v", m.screen)
	}
	at := m.logv.cur
	if at < 0 || !strings.Contains(r.log.Line(at).Text, "Graph break") {
		t.Fatalf("jumped to line %d (%q), want the record of %s:%d", at, r.log.Line(max(at, 0)).Text, ev.Input, ev.InputLine)
	}
	if got := r.log.Find(ev.Input, ev.InputLine); got != at {
		t.Errorf("jumped to %d, evidence is at %d", at, got)
	}
	if !strings.Contains(plain(m), r.log.Line(at).Text[:40]) {
		t.Errorf("the target line is not on screen:\n%s", plain(m))
	}
	press(m, "esc")
	if m.screen != screenDetail {
		t.Errorf("esc from a jump should return to the detail view, got %v", m.screen)
	}
}

func TestLogSearchNextPreviousAndRankFilter(t *testing.T) {
	m := liveModel(t, 100, 30)
	r := feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
	press(m, "l", "g")
	press(m, "/")
	for _, c := range "Recompiling" {
		press(m, string(c))
	}
	searched(m, press(m, "enter"))
	var hits []int
	for i, l := range r.log.Lines(0, r.log.Len()) {
		if strings.Contains(l.Text, "Recompiling") {
			hits = append(hits, i)
		}
	}
	if len(hits) < 2 {
		t.Fatalf("fixture should have several recompiles, has %d", len(hits))
	}
	if m.logv.cur != hits[0] {
		t.Fatalf("search found line %d, want %d", m.logv.cur, hits[0])
	}
	searched(m, press(m, "n"))
	if m.logv.cur != hits[1] {
		t.Fatalf("n went to %d, want %d", m.logv.cur, hits[1])
	}
	searched(m, press(m, "N"))
	if m.logv.cur != hits[0] {
		t.Fatalf("N went to %d, want %d", m.logv.cur, hits[0])
	}
	press(m, "f") // rank 0 only
	n, at := m.logv.index(r)
	if m.logv.rank != 0 || n == 0 || n >= r.log.Len() {
		t.Fatalf("rank filter: rank %d, %d of %d lines", m.logv.rank, n, r.log.Len())
	}
	for i := 0; i < n; i++ {
		if !strings.HasPrefix(r.log.Line(at(i)).Text, "[rank0]:") {
			t.Fatalf("rank 0 filter shows %q", r.log.Line(at(i)).Text)
		}
	}
	press(m, "f", "f") // rank 1, then all
	if m.logv.rank != -1 {
		t.Errorf("f should cycle back to all ranks, rank = %d", m.logv.rank)
	}
}

func TestRunsViewAndDiffOfTwoRuns(t *testing.T) {
	m := liveModel(t, 120, 32)
	feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
	feedRun(t, m, 2, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	press(m, "h")
	screen := plain(m)
	if i, j := strings.Index(screen, "#2"), strings.Index(screen, "#1"); i < 0 || j < 0 || i > j {
		t.Fatalf("runs should be listed newest first:\n%s", screen)
	}
	press(m, "d")
	if m.screen != screenDiff || m.diff == nil {
		t.Fatal("d should open the diff")
	}
	if m.diff.from.id != 1 || m.diff.to.id != 2 {
		t.Fatalf("diff %d → %d, want 1 → 2", m.diff.from.id, m.diff.to.id)
	}
	screen = plain(m)
	for i := 0; i < 30 && !strings.Contains(screen, "- gone"); i++ { // the gone items follow the new ones
		press(m, "down")
		screen += plain(m)
	}
	if m.diff.res.New == 0 || m.diff.res.Gone == 0 || !strings.Contains(screen, "+ new") || !strings.Contains(screen, "- gone") {
		t.Fatalf("diff of two different repros should have new and gone items (%+v):\n%s", m.diff.res, screen)
	}
	press(m, "esc", "h", "down", "enter")
	if m.cur.id != 1 || m.screen != screenMain {
		t.Errorf("enter in runs should show run 1, showing %d on %v", m.cur.id, m.screen)
	}
}

func TestGuideProposesTheNextStepAndShowsWhatIsMet(t *testing.T) {
	m := liveModel(t, 100, 40)
	feedRun(t, m, 1, "", "eager", "", 0)
	feedRun(t, m, 2, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
	// no metric and no measured compile time: eager vs compiled is inconclusive, not ticked
	step, done := m.nextStep()
	if step.ID != "baseline" || slices.Contains(done, "baseline") {
		t.Fatalf("without a metric: step %q done %v; want baseline, not done", step.ID, done)
	}
	press(m, "n")
	screen := plain(m)
	if !strings.Contains(screen, "inconclusive: wall time includes compile time; give --metric") || strings.Contains(screen, "✓ 1/6") {
		t.Fatalf("guide should say the baseline is inconclusive:\n%s", screen)
	}
	press(m, "esc")
	// with a metric on both runs the baseline is measured
	v1, v2 := 10.0, 12.0
	m.run(1).meta.Metric, m.run(2).meta.Metric = &v1, &v2
	step, done = m.nextStep()
	if step.ID != "breaks" || !slices.Contains(done, "baseline") {
		t.Fatalf("after an eager and a compiled run with a metric and a print break: step %q done %v", step.ID, done)
	}
	press(m, "n")
	screen = plain(m)
	if m.screen != screenGuide || !strings.Contains(screen, "✓ 1/6 Eager baseline") || !strings.Contains(screen, "▸ 2/6 Find graph breaks") {
		t.Fatalf("guide should mark step 1 met and propose step 2:\n%s", screen)
	}
	if !strings.Contains(screen, "Done when: No unexpected graph breaks remain") {
		t.Errorf("guide lacks the step's done-when:\n%s", screen)
	}
	cmd := press(m, "enter")
	if cmd == nil || m.pre.name != "breaks" {
		t.Fatalf("enter should relaunch with the step's preset (preset %q)", m.pre.name)
	}
}

// A run that showed nothing (no torch output) ticks no step of the guided flow.
func TestGuideTicksNothingWithoutEvidence(t *testing.T) {
	m := liveModel(t, 100, 40)
	feedRun(t, m, 1, "", "breaks", "graph_breaks,recompiles", 0)
	if _, done := m.nextStep(); len(done) != 0 {
		t.Fatalf("a torch-less run ticked %v", done)
	}
	press(m, "n")
	if screen := plain(m); strings.Contains(screen, "✓ ") && strings.Contains(screen, "/6 ") && regexp.MustCompile(`✓ [1-6]/6`).MatchString(screen) || !strings.Contains(screen, "0 of 6 done") {
		t.Fatalf("guide on a torch-less run:\n%s", screen)
	}
}

func TestOpenedLogsCannotBeRelaunched(t *testing.T) {
	m := openModel(t, 100, 30, "gb_recompile.triage.log")
	if cmd := press(m, "r"); cmd != nil {
		t.Fatal("r on opened logs should not launch anything")
	}
	if !strings.Contains(plain(m), "opened logs cannot be rerun") {
		t.Errorf("no explanation:\n%s", plain(m))
	}
	press(m, "tab", "tab")
	if m.focus == panePresets {
		t.Error("opened logs have no preset bar to focus")
	}
}

func TestScreensToggleAndEscReturns(t *testing.T) {
	m := openModel(t, 100, 30, "r05_dist_c10d.triage.log")
	for _, c := range []struct {
		key   string
		s     screen
		title string
	}{{"R", screenRanks, "Ranks × findings"}, {"t", screenTimeline, "Timeline"}, {"?", screenHelp, "Help · every key"},
		{"l", screenLog, "Log ·"}, {"h", screenRuns, "Runs ·"}} {
		press(m, c.key)
		if m.screen != c.s || !strings.Contains(plain(m), c.title) {
			t.Fatalf("%s: screen %v:\n%s", c.key, m.screen, plain(m))
		}
		press(m, "esc")
		if m.screen != screenMain {
			t.Fatalf("esc from %s: screen %v", c.key, m.screen)
		}
	}
}

func TestLoadErrorIsShown(t *testing.T) {
	m := openModel(t, 80, 24, "no-such-file.log")
	if !strings.Contains(plain(m), "cannot open") {
		t.Fatalf("no error on screen:\n%s", plain(m))
	}
}
