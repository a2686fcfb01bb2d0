package triage_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// The JSON's "ranks" are the ranks the text header names (evidence.ranks: prefixes, probes, torchrun), and its
// per_rank holds counts only of ranks a record names (per_rank_unknown names the others:
// TestReportPerRankNamesTheRanksItHasNoCountsOf): quiet-rank read "ranks": [1] (rank 0 printed no torch
// record) and unprefixed-rank-break "ranks": [] (its one record has no prefix) under a header of "ranks 0,1".
func TestReportJSONRanksAreTheHeadersRanks(t *testing.T) {
	rec := filepath.Join("..", "testdata", "recorded")
	for _, c := range []struct {
		dir     string
		perRank []string
	}{
		{filepath.Join("quiet-rank", "runs", "0013-breaks"), []string{"1"}},
		{filepath.Join("silenced-rank", "runs", "0001-breaks"), []string{"0"}},
		{filepath.Join("unprefixed-rank-break", "runs", "0001-breaks"), nil},
	} {
		dir := filepath.Join(rec, c.dir)
		out := triagetest.ReportText(t, 300, dir)
		if !strings.Contains(lineWith(out, "torchtriage report"), "ranks 0,1") {
			t.Fatalf("%s: report header:\n%s", c.dir, out)
		}
		js := triagetest.ReportJSON(t, dir)
		var rep struct {
			Ranks    []int                     `json:"ranks"`
			PerRank  map[string]map[string]int `json:"per_rank"`
			Evidence struct {
				Ranks []int `json:"ranks"`
			} `json:"evidence"`
		}
		if err := json.Unmarshal([]byte(js), &rep); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rep.Ranks, []int{0, 1}) || !slices.Equal(rep.Evidence.Ranks, []int{0, 1}) {
			t.Errorf("%s: ranks %v, evidence.ranks %v, the header ranks 0,1", c.dir, rep.Ranks, rep.Evidence.Ranks)
		}
		var keys []string
		for k := range rep.PerRank {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, c.perRank) { // a rank no record names has no counts: not 0s
			t.Errorf("%s: per_rank of %v, want %v", c.dir, keys, c.perRank)
		}
	}
}
