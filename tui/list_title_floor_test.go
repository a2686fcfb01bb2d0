package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/story"
)

// The lists' titles count as the report's counts line, the ranks strip and the runs list do: a run that did not
// complete — stopped by torchtriage, a process dead, or still running — counted only what it reached, so its
// counts are floors. The titles kept exact counts beside a strip of floors: lagging-rank's stopped run read
// "Graph breaks · 1 distinct · 1 record" and "Recompiles · 0" where the report reads "graph breaks ≥1 distinct (1
// record) · recompiles ≥0", a live run "Recompiles · 7" under a strip of "≥7 recompiles", the NCCL crash "Breaks &
// errors · 2 runtime errors" where the report reads "runtime errors ≥2".
func TestListTitlesCountAsTheReportDoes(t *testing.T) {
	live := func(file string, exit int) func() *Model {
		return func() *Model {
			m := liveModel(t, 120, 32)
			feedRun(t, m, 1, file, "breaks", "graph_breaks,recompiles", exit)
			return m
		}
	}
	opened := func(path string) func() *Model { return func() *Model { return openModel(t, 120, 32, path) } }
	for _, c := range []struct {
		name string
		m    func() *Model
		want []string // in the titles, beside the report's words
	}{
		{"stopped (lagging-rank)", opened(recordedRun("lagging-rank", "0001-breaks")), []string{"Breaks & more · ≥1 break (≥1 record) · 1 hang ", "Recompiles · ≥0 "}},
		{"live", live("gb_recompile.triage.log", -1), []string{"≥3 distinct", "Recompiles · ≥7 "}},
		{"exited", live("gb_recompile.triage.log", 0), []string{"Graph breaks · 3 distinct · 7 records", "Recompiles · 7 "}},
		{"two processes crashed (NCCL)", opened(filepath.Join("..", "..", "testdata", "fixtures", "torch-2.11-cuda", "g09a_nccl_same_gpu.no_torch_logs.log")),
			[]string{"Breaks & errors · ≥2 runtime errors "}},
		{"graph_breaks off, an item() break", opened(filepath.Join("..", "..", "testdata", "fixtures", "torch-2.14", "gb_recompile.no_torch_logs.log")),
			[]string{"Graph breaks · at least 1 distinct · 1 record "}},
	} {
		m := c.m()
		screen := plain(m)
		a := m.cur.snap.analysis
		titles := lineWith(t, screen, "Recompiles ·")
		if l := strings.Split(screen, "\n"); len(l) > 3 {
			titles = strings.Join(l[:len(l)/2], "\n") // the lists' boxes: the upper half of the screen at 120x32
		}
		for _, w := range c.want {
			if !strings.Contains(titles, w) {
				t.Errorf("%s: the titles lack %q:\n%s", c.name, w, titles)
			}
		}
		// the report's words of each count shown: "≥1", "at least 1", "7"
		for _, v := range []string{a.BreaksValue(), a.RecompilesValue()} {
			n := strings.Fields(v)[0]
			if n == "at" {
				n = "at least " + strings.Fields(v)[2]
			}
			if strings.ContainsAny(n[len(n)-1:], "0123456789") && !strings.Contains(titles, "· "+n+" ") {
				t.Errorf("%s: the report's %q is not a title's count:\n%s", c.name, v, titles)
			}
		}
		if rt := story.WordOf(story.WordCounts(a, story.ShortNouns), story.CountRuntimeErrors); a.Report.Counts.RuntimeErrors > 0 && !strings.Contains(titles, rt.Words) {
			t.Errorf("%s: the titles lack the report's %q:\n%s", c.name, rt.Words, titles)
		}
	}
}
