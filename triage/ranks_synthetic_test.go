package triage_test

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// Synthetic records, built the way the parser builds them from a torchrun capture (torch-log-formats.md §3, §4).

// TestSyntheticRankAgreement1024: 1024 ranks recompile step once for a new size; rank 1 recompiles again
// (size 9→11). The groups are {all but 1} and {1}; the summary names rank 1 and does not list the others.
func TestSyntheticRankAgreement1024(t *testing.T) {
	build := func(n int) *triage.Analysis {
		return triagetest.SynthAnalysis(t, n, func(agg *report.Aggregator) {
			line := 1
			for r := 0; r < n; r++ {
				agg.Add(testlogs.SynthRecompile(r, 0, 1, "step", "tensor 'L['x']' size mismatch at index 0. expected 8, actual 9", line))
				line += 3
			}
			agg.Add(testlogs.SynthRecompile(1, 0, 2, "step", "tensor 'L['x']' size mismatch at index 0. expected 9, actual 11", line))
		})
	}
	a := build(1024)
	ra := a.RankAgreement
	if ra.Agree || len(ra.Groups) != 2 || len(ra.Groups[0].Ranks) != 1023 || len(ra.Groups[1].Ranks) != 1 || ra.Groups[1].Ranks[0] != 1 {
		t.Fatalf("groups: agree=%v %d groups", ra.Agree, len(ra.Groups))
	}
	want := "ranks 0,2–1023 agree; rank 1: extra recompile of step, size mismatch x[0] 9→11"
	if ra.Summary != want {
		t.Errorf("summary %q\nwant    %q", ra.Summary, want)
	}
	if fd := ra.Groups[1].FirstDivergent; len(fd) != 1 || fd[1] != "0/2" {
		t.Errorf("first divergent %v", fd)
	}
	// rank 1's second recompile fails graph 0/1's exact-size guard (expected 9): the graph its first recompile
	// compiled was static in x[0], so that one was no automatic dynamic either: 2 beyond it, 1023 expected
	rc := triage.FindingsOf(a, findings.KindRecompile)
	if len(rc) != 1 || rc[0].Records != 1025 || rc[0].Unexpected() != 2 || rc[0].Expected ||
		rc[0].Title != "step recompiles 2× on sizes of x (x[0] 9→11) beyond automatic dynamic's first on rank 1" { // the others' were expected
		t.Errorf("recompile finding: records %d unexpected %d title %q", rc[0].Records, rc[0].Unexpected(), rc[0].Title)
	}
	small := build(8)
	if s := small.RankAgreement.Summary; s != "ranks 0,2–7 agree; rank 1: extra recompile of step, size mismatch x[0] 9→11" {
		t.Errorf("8 ranks: %q", s)
	}
	var txt strings.Builder
	render.WriteFindingsText(&txt, a, text.Options{})
	var smallText strings.Builder
	render.WriteFindingsText(&smallText, small, text.Options{})
	if d := txt.Len() - smallText.Len(); d < 0 || d > 64 {
		t.Errorf("text output grows with ranks: %d bytes for 1024 ranks, %d for 8", txt.Len(), smallText.Len())
	}
}

// Half the ranks break (every even rank): the reference is the group without the break, and the summary
// stays bounded although the ranks do not form ranges.
func TestSyntheticRankAgreementInterleaved(t *testing.T) {
	a := triagetest.SynthAnalysis(t, 1024, func(agg *report.Aggregator) {
		for r := 0; r < 1024; r += 2 {
			agg.Add(testlogs.SynthBreak(r, 0, 0, 10, r+1))
		}
	})
	ra := a.RankAgreement
	if ra.Agree || len(ra.Groups) != 2 || ra.Groups[0].Ranks[0] != 1 || len(ra.Groups[1].Ranks) != 512 {
		t.Fatalf("%+v", ra.Groups[0].Ranks[:3])
	}
	if !strings.Contains(ra.Summary, "(512 ranks)") || len(ra.Summary) > 220 || !strings.Contains(ra.Summary, "extra graph break print() at train.py:10") {
		t.Errorf("summary (%d bytes) %q", len(ra.Summary), ra.Summary)
	}
	if len(ra.Groups[1].FirstDivergent) != 512 || ra.Groups[1].FirstDivergent[1022] != "0/0" {
		t.Errorf("first divergent: %d entries", len(ra.Groups[1].FirstDivergent))
	}
}

// Every rank breaks at its own line: 1024 groups, the summary spells out only a few.
func TestSyntheticRankAgreementAllDiffer(t *testing.T) {
	a := triagetest.SynthAnalysis(t, 1024, func(agg *report.Aggregator) {
		for r := 0; r < 1024; r++ {
			agg.Add(testlogs.SynthBreak(r, 0, 0, 100+r, r+1))
		}
	})
	ra := a.RankAgreement
	if ra.Agree || len(ra.Groups) != 1024 {
		t.Fatalf("%d groups", len(ra.Groups))
	}
	if !strings.Contains(ra.Summary, "no two ranks agree") || !strings.Contains(ra.Summary, "more groups of ranks differ") || len(ra.Summary) > 600 {
		t.Errorf("summary (%d bytes) %q", len(ra.Summary), ra.Summary)
	}
}
