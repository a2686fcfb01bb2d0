package triage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// A 1024-rank log from the real 2-rank r05 fixture (torch 2.6): every rank prints what its rank 1 printed
// (a recompile), rank 512 what its rank 0 printed (the rank-divergent print() break, its duplicate and two
// recompiles). The text report groups ranks with identical counts (two lines, not 1024); the JSON keeps every
// rank.
func TestReport1024RanksGrouped(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(triage.Fixtures, "torch-2.6", "r05_dist_c10d.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	linesOf := func(rank string) []string {
		var out []string
		for _, l := range strings.SplitAfter(string(data), "\n") {
			if rest, ok := strings.CutPrefix(l, "["+rank+"]:"); ok {
				out = append(out, rest)
			}
		}
		return out
	}
	normal, odd := linesOf("rank1"), linesOf("rank0")
	if len(normal) == 0 || len(odd) <= len(normal) {
		t.Fatalf("fixture: %d rank-1 lines, %d rank-0 lines", len(normal), len(odd))
	}
	var b strings.Builder
	for r := 0; r < 1024; r++ {
		lines := normal
		if r == 512 {
			lines = odd
		}
		for _, l := range lines {
			b.WriteString("[rank" + strconv.Itoa(r) + "]:" + l)
		}
	}
	path := filepath.Join(t.TempDir(), "1024.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, _, err := triage.BuildReport([]string{path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	an := triage.Analyze(rep, nil, nil)
	if len(rep.PerRank) != 1024 || len(rep.Ranks) != 1024 {
		t.Fatalf("per_rank %d ranks %d", len(rep.PerRank), len(rep.Ranks))
	}
	c0, c512 := rep.PerRank["0"], rep.PerRank["512"]
	if c0 == c512 || c0.Recompiles != 1 || c512.GraphBreaks != 1 || c512.Recompiles != 2 {
		t.Fatalf("rank 0 %+v, rank 512 %+v", c0, c512)
	}
	line := func(who string, c report.Counts) string { return "  " + who + ": " + render.CountsText(c, an) }
	var txt strings.Builder
	render.WriteReportText(&txt, an, text.Options{Width: 200})
	out := txt.String()
	i := strings.Index(out, "\nPer rank\n")
	if i < 0 {
		t.Fatalf("no Per rank section:\n%s", out)
	}
	section := strings.SplitN(out[i+len("\nPer rank\n"):], "\n\n", 2)[0]
	want := line("ranks 0–511,513–1023", c0) + "\n" + line("rank 512", c512)
	if strings.TrimRight(section, "\n") != want {
		t.Errorf("Per rank:\n%s\nwant:\n%s", section, want)
	}
	if !strings.Contains(out, "×2 rank 512  ") {
		t.Errorf("the break names its one rank:\n%s", out[:min(len(out), 2000)])
	}
	if len(strings.Split(out, "\n")) > 40 {
		t.Errorf("the text report grows with ranks: %d lines", len(strings.Split(out, "\n")))
	}
	js, err := json.Marshal(render.JSONOf(an))
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		PerRank map[string]report.Counts `json:"per_rank"`
	}
	if err := json.Unmarshal(js, &back); err != nil || len(back.PerRank) != 1024 || back.PerRank["512"] != c512 || back.PerRank["1023"] != c0 {
		t.Errorf("JSON per_rank: %d ranks, 512 %+v, 1023 %+v (%v)", len(back.PerRank), back.PerRank["512"], back.PerRank["1023"], err)
	}
	if an.RankAgreement.Agree || !strings.HasPrefix(an.RankAgreement.Summary, "ranks 0–511,513–1023 agree; rank 512: ") {
		t.Errorf("rank agreement: %q", an.RankAgreement.Summary)
	}
}

// Ranks with the same counts group in any order; the largest group comes first, past maxPerRankLines groups the
// rest is counted.
func TestGroupPerRank(t *testing.T) {
	per := map[string]report.Counts{}
	for r := 0; r < 40; r++ {
		per[strconv.Itoa(r)] = report.Counts{Recompiles: r % 2} // even ranks one way, odd ranks the other
	}
	per["7"] = report.Counts{Recompiles: 9}
	g := render.GroupPerRank(per)
	if len(g) != 3 || len(g[0].Ranks) != 20 || g[0].Ranks[0] != 0 || len(g[1].Ranks) != 19 || g[2].Ranks[0] != 7 {
		t.Fatalf("groups %+v", g)
	}
	many := map[string]report.Counts{}
	for r := 0; r < 100; r++ {
		many[strconv.Itoa(r)] = report.Counts{Recompiles: r}
	}
	var b strings.Builder
	render.WritePerRank(text.NewWriter(&b, text.Options{Width: 200}), &report.Report{PerRank: many}, nil)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != render.MaxPerRankLines+2 || lines[len(lines)-1] != "  … "+strconv.Itoa(100-render.MaxPerRankLines)+" more groups of ranks ("+strconv.Itoa(100-render.MaxPerRankLines)+" ranks): --format json has every rank" {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
	// one group past the shown ones is "1 more group of ranks (1 rank)" (it read "1 more groups of ranks (1 ranks)")
	one := map[string]report.Counts{}
	for r := 0; r <= render.MaxPerRankLines; r++ {
		one[strconv.Itoa(r)] = report.Counts{Recompiles: r}
	}
	b.Reset()
	render.WritePerRank(text.NewWriter(&b, text.Options{Width: 200}), &report.Report{PerRank: one}, nil)
	if !strings.HasSuffix(strings.TrimSpace(b.String()), "  … 1 more group of ranks (1 rank): --format json has every rank") {
		t.Errorf("one more group:\n%s", b.String())
	}
}
