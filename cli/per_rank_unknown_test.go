package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A rank the header names that printed no record of its own is in the JSON beside per_rank, not left out of it:
// per_rank_unknown names it, what shows it (its probe), and what its probe counted compiled; the text report's
// "Per rank" names it too ("counts not known"), from the same list. quiet-rank's per_rank read {"1": …} alone
// under "ranks": [0, 1], although rank 0's probe counted a compiled frame (a reader took rank 0 for absent or
// idle), and the text had no "Per rank" section at all; silenced-rank's rank 1 counted a break its log lost.
func TestReportPerRankNamesTheRanksItHasNoCountsOf(t *testing.T) {
	rec := filepath.Join("..", "testdata", "recorded")
	for _, c := range []struct {
		dir     string
		unknown []int
		frames  []int // each unknown rank's compiled frames, as its probe counted them
	}{
		{filepath.Join("quiet-rank", "runs", "0013-breaks"), []int{0}, []int{1}},
		{filepath.Join("silenced-rank", "runs", "0001-breaks"), []int{1}, []int{2}},
		{filepath.Join("unprefixed-rank-break", "runs", "0001-breaks"), []int{0, 1}, []int{1, 2}},
	} {
		dir := filepath.Join(rec, c.dir)
		_, js, _ := runCLI("report", "--format", "json", dir)
		var rep struct {
			Ranks   []int                     `json:"ranks"`
			PerRank map[string]map[string]int `json:"per_rank"`
			Unknown []struct {
				Rank      int      `json:"rank"`
				KnownFrom []string `json:"known_from"`
				Frames    *int     `json:"probe_frames_compiled"`
			} `json:"per_rank_unknown"`
		}
		if err := json.Unmarshal([]byte(js), &rep); err != nil {
			t.Fatal(err)
		}
		var ranks, frames []int
		for _, u := range rep.Unknown {
			ranks = append(ranks, u.Rank)
			if u.Frames != nil {
				frames = append(frames, *u.Frames)
			}
			if !slices.Contains(u.KnownFrom, "probe") {
				t.Errorf("%s: rank %d known from %v, want its probe", c.dir, u.Rank, u.KnownFrom)
			}
			if _, ok := rep.PerRank[strconv.Itoa(u.Rank)]; ok {
				t.Errorf("%s: rank %d in per_rank and per_rank_unknown", c.dir, u.Rank)
			}
		}
		if !slices.Equal(ranks, c.unknown) || !slices.Equal(frames, c.frames) {
			t.Errorf("%s: per_rank_unknown ranks %v with frames %v, want %v with %v (ranks %v, per_rank of %d)",
				c.dir, ranks, frames, c.unknown, c.frames, rep.Ranks, len(rep.PerRank))
		}
		if len(rep.PerRank)+len(rep.Unknown) != len(rep.Ranks) {
			t.Errorf("%s: %d ranks, per_rank %d, per_rank_unknown %d", c.dir, len(rep.Ranks), len(rep.PerRank), len(rep.Unknown))
		}
		_, out, _ := runCLI("report", "--width", "300", dir)
		sec := out[max(strings.Index(out, "\nPer rank\n"), 0):]
		for _, r := range c.unknown {
			if l := lineWith(sec, "  rank "+strconv.Itoa(r)+": "); !strings.Contains(out, "\nPer rank\n") || !strings.Contains(l, "counts not known") {
				t.Errorf("%s: Per rank line of rank %d %q in\n%s", c.dir, r, l, out)
			}
		}
	}
}

// A silenced log (a process counted what its log lacks) has no count that stands, limit hits included: the text's
// "Per rank" says so as its counts line and the TUI's limits column do ("limit hits not in the log"); it read
// "0 limit hits" for silenced-rank's rank 0 under a counts line of "limit hits not in the log".
func TestPerRankLimitHitsOfASilencedLog(t *testing.T) {
	_, out, _ := runCLI("report", "--width", "300", filepath.Join("..", "testdata", "recorded", "silenced-rank", "runs", "0001-breaks"))
	if !strings.Contains(lineWith(out, "limit hits"), "limit hits not in the log") {
		t.Fatalf("counts line:\n%s", out)
	}
	sec := out[max(strings.Index(out, "\nPer rank\n"), 0):]
	if l := lineWith(sec, "  rank 0: "); !strings.Contains(l, "limit hits not in the log") || strings.Contains(l, "0 limit hits") {
		t.Errorf("Per rank line of rank 0 %q", l)
	}
}
