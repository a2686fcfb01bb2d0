package triage_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// A rank the header names that printed no record of its own is in the JSON beside per_rank, not left out of it:
// per_rank_unknown names it, what shows it (its probe), and what its probe counted compiled; the text report's
// "Per rank" names it too ("no log record names it"), from the same list. quiet-rank's per_rank read {"1": …} alone
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
		js := triagetest.ReportJSON(t, dir)
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
		out := triagetest.ReportText(t, 300, dir)
		sec := out[max(strings.Index(out, "\nPer rank\n"), 0):]
		for _, r := range c.unknown {
			if l := lineWith(sec, "  rank "+strconv.Itoa(r)+": "); !strings.Contains(out, "\nPer rank\n") || !strings.Contains(l, "no log record names it") {
				t.Errorf("%s: Per rank line of rank %d %q in\n%s", c.dir, r, l, out)
			}
		}
	}
}

// A silenced log (a process counted what its log lacks) has no count that stands, limit hits included: the text's
// "Per rank" says so as its counts line and the TUI's limits column do ("limit hits not in the log"); it read
// "0 limit hits" for silenced-rank's rank 0 under a counts line of "limit hits not in the log".
func TestPerRankLimitHitsOfASilencedLog(t *testing.T) {
	out := triagetest.ReportText(t, 300, filepath.Join("..", "testdata", "recorded", "silenced-rank", "runs", "0001-breaks"))
	if !strings.Contains(lineWith(out, "limit hits"), "limit hits not in the log") {
		t.Fatalf("counts line:\n%s", out)
	}
	sec := out[max(strings.Index(out, "\nPer rank\n"), 0):]
	if l := lineWith(sec, "  rank 0: "); !strings.Contains(l, "limit hits not in the log") || strings.Contains(l, "0 limit hits") {
		t.Errorf("Per rank line of rank 0 %q", l)
	}
}

// The text report's "Per rank" line of a rank no log record names says, quantity by quantity, what its probe
// counted, as the rank agreement above it compares it: quiet-rank's rank 0 read "counts not known" of every count
// under "rank 0 as its probe counted (no log record names it): 1 compiled frame, no graph break". The JSON has
// the same per quantity (per_rank_unknown's probe_counts); of the test-only 3-frame copy, the recompiles stay not
// known, as rank agreement leaves them not compared.
func TestPerRankLineOfARankSaysWhatItsProbeCounted(t *testing.T) {
	for _, c := range []struct {
		name, dir, agreement, line string
		none                       []string
	}{
		{"0013-breaks", filepath.Join("..", "testdata", "recorded", "quiet-rank", "runs", "0013-breaks"),
			"rank 0 as its probe counted (no log record names it): 1 compiled frame, no graph break",
			"rank 0: 0 breaks, 0 recompiles, 0 limit hits, 0 skips, 0 compile errors, runtime errors not known; " +
				"no log record names it: the 0s are as its probe counted (1 compiled frame)",
			[]string{"graph breaks", "recompiles", "compile errors", "CUDA-graph skips"}},
		{"3 frames", synthetic3Frames(t),
			"rank 0 as its probe counted (no log record names it): no graph break; its recompiles not compared",
			"rank 0: 0 breaks, recompiles not known, limit hits not known, 0 skips, 0 compile errors, runtime errors not known; " +
				"no log record names it: the 0s are as its probe counted (it also counted 3 frame compiles, which may be recompiles)",
			[]string{"graph breaks", "compile errors", "CUDA-graph skips"}},
	} {
		out := triagetest.ReportText(t, 300, c.dir)
		if !strings.Contains(lineWith(out, "Rank agreement:"), c.agreement) {
			t.Errorf("%s: rank agreement:\n%s", c.name, out)
		}
		sec := out[max(strings.Index(out, "\nPer rank\n"), 0):]
		if l := strings.TrimSpace(lineWith(sec, "  rank 0: ")); l != c.line {
			t.Errorf("%s: Per rank line\n%q\nwant\n%q", c.name, l, c.line)
		}
		js := triagetest.ReportJSON(t, c.dir)
		var rep struct {
			Unknown []struct {
				Probe *struct {
					None     []string `json:"none"`
					NotKnown []string `json:"not_known"`
				} `json:"probe_counts"`
			} `json:"per_rank_unknown"`
		}
		if err := json.Unmarshal([]byte(js), &rep); err != nil || len(rep.Unknown) != 1 || rep.Unknown[0].Probe == nil ||
			!slices.Equal(rep.Unknown[0].Probe.None, c.none) {
			t.Errorf("%s: per_rank_unknown %+v (%v)", c.name, rep.Unknown, err)
		}
	}
}
