package triage

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// Synthetic records, built the way the parser builds them from a torchrun capture (torch-log-formats.md §3, §4).

func synthRecompile(rank, frame, compile int, fn, guard string, line int) *logparse.Record {
	return &logparse.Record{Kind: logparse.KindRecompile, Rank: rank, PID: 5000 + rank, Input: "synthetic.log", FirstLine: line,
		CompileID: logparse.CompileID{Autograd: -1, Frame: frame, Compile: compile},
		Recompile: &logparse.Recompile{Function: fn, File: "/w/train.py", Line: 6,
			Failures: []logparse.GuardFailure{{CompileID: fmt.Sprintf("%d/%d", frame, compile-1), Guard: guard}}}}
}

func synthBreak(rank, frame, compile, site, line int) *logparse.Record {
	fr := logparse.Frame{File: "/w/train.py", Line: site, Func: "step", Code: `print("debug")`}
	return &logparse.Record{Kind: logparse.KindGraphBreak, Rank: rank, PID: 5000 + rank, Input: "synthetic.log", FirstLine: line,
		CompileID: logparse.CompileID{Autograd: -1, Frame: frame, Compile: compile},
		Break: &logparse.GraphBreak{Variant: logparse.BreakFull, File: "/w/train.py", Line: site,
			Reason: "Unsupported: builtin: print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False",
			Frames: []logparse.Frame{fr}, UserFrame: fr}}
}

func synthAnalysis(t testing.TB, ranks int, add func(agg *Aggregator)) *Analysis {
	t.Helper()
	agg := NewAggregator()
	agg.AddInput("synthetic.log", -1)
	for r := 0; r < ranks; r++ {
		agg.AddRank(r)
	}
	add(agg)
	// a completed run whose TORCH_LOGS logged breaks and recompiles: what the synthetic records leave out
	// (nothing) is known not to have happened
	return AnalyzeRun(agg.Report(), nil, nil, &RunFacts{Outcome: OutcomeCompleted, TorchLogs: "graph_breaks,recompiles",
		TorchLogsSet: true, WorldSize: ranks})
}

// TestSyntheticRankAgreement1024: 1024 ranks recompile step once for a new size; rank 1 recompiles again
// (size 9→11). The groups are {all but 1} and {1}; the summary names rank 1 and does not list the others.
func TestSyntheticRankAgreement1024(t *testing.T) {
	build := func(n int) *Analysis {
		return synthAnalysis(t, n, func(agg *Aggregator) {
			line := 1
			for r := 0; r < n; r++ {
				agg.Add(synthRecompile(r, 0, 1, "step", "tensor 'L['x']' size mismatch at index 0. expected 8, actual 9", line))
				line += 3
			}
			agg.Add(synthRecompile(1, 0, 2, "step", "tensor 'L['x']' size mismatch at index 0. expected 9, actual 11", line))
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
	rc := findingsOf(a, KindRecompile)
	if len(rc) != 1 || rc[0].Records != 1025 || rc[0].Unexpected() != 2 || rc[0].Expected ||
		rc[0].Title != "step recompiles 2× on sizes of x (x[0] 9→11) beyond automatic dynamic's first on rank 1" { // the others' were expected
		t.Errorf("recompile finding: records %d unexpected %d title %q", rc[0].Records, rc[0].Unexpected(), rc[0].Title)
	}
	small := build(8)
	if s := small.RankAgreement.Summary; s != "ranks 0,2–7 agree; rank 1: extra recompile of step, size mismatch x[0] 9→11" {
		t.Errorf("8 ranks: %q", s)
	}
	var text strings.Builder
	WriteFindingsText(&text, a, TextOptions{})
	var smallText strings.Builder
	WriteFindingsText(&smallText, small, TextOptions{})
	if d := text.Len() - smallText.Len(); d < 0 || d > 64 {
		t.Errorf("text output grows with ranks: %d bytes for 1024 ranks, %d for 8", text.Len(), smallText.Len())
	}
}

// Half the ranks break (every even rank): the reference is the group without the break, and the summary
// stays bounded although the ranks do not form ranges.
func TestSyntheticRankAgreementInterleaved(t *testing.T) {
	a := synthAnalysis(t, 1024, func(agg *Aggregator) {
		for r := 0; r < 1024; r += 2 {
			agg.Add(synthBreak(r, 0, 0, 10, r+1))
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
	a := synthAnalysis(t, 1024, func(agg *Aggregator) {
		for r := 0; r < 1024; r++ {
			agg.Add(synthBreak(r, 0, 0, 100+r, r+1))
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

func TestRankAgreementSmall(t *testing.T) {
	if ra := RankAgree(nil, nil); ra.Agree || ra.Disagree() || ra.Summary != "single process" || ra.NotCompared != "no rank prefix in the input" {
		t.Errorf("single process: %+v", ra)
	}
	if ra := RankAgree([]int{3}, nil); ra.Agree || ra.Disagree() || ra.Summary != "only rank 3 seen" || ra.NotCompared != "only rank 3 seen" {
		t.Errorf("one rank: %+v", ra)
	}
	a := analyzeFiles(t, "torch-2.14/ddp_2ranks.ddp.log")
	if ra := a.RankAgreement; !ra.Agree || ra.Summary != "all 2 ranks agree (0,1)" {
		t.Errorf("ddp: %+v", ra)
	}
	if findingsOf(a, KindRankDisagreement) != nil {
		t.Error("ddp: disagreement finding although ranks agree")
	}
}

func TestCompactRanks(t *testing.T) {
	if got := compactRanks([]int{0, 2, 3, 4, 5, 6, 7}); got != "0,2–7" {
		t.Errorf("%q", got)
	}
	var evens []int
	for r := 0; r < 40; r += 2 {
		evens = append(evens, r)
	}
	if got := compactRanks(evens); got != "0,2,4,6,8,10,12,14,… (20 ranks)" {
		t.Errorf("%q", got)
	}
	if got := parseRanges("0,2-4,7–8,x,9-1"); fmt.Sprint(got) != "[0 2 3 4 7 8]" {
		t.Errorf("parseRanges %v", got)
	}
}

// A 1024-rank log from the real 2-rank r05 fixture (torch 2.6): every rank prints what its rank 1 printed
// (a recompile), rank 512 what its rank 0 printed (the rank-divergent print() break, its duplicate and two
// recompiles). The text report groups ranks with identical counts (two lines, not 1024); the JSON keeps every
// rank.
func TestReport1024RanksGrouped(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures, "torch-2.6", "r05_dist_c10d.triage.log"))
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
	rep, _, err := buildReport([]string{path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	an := Analyze(rep, nil, nil)
	if len(rep.PerRank) != 1024 || len(rep.Ranks) != 1024 {
		t.Fatalf("per_rank %d ranks %d", len(rep.PerRank), len(rep.Ranks))
	}
	c0, c512 := rep.PerRank["0"], rep.PerRank["512"]
	if c0 == c512 || c0.Recompiles != 1 || c512.GraphBreaks != 1 || c512.Recompiles != 2 {
		t.Fatalf("rank 0 %+v, rank 512 %+v", c0, c512)
	}
	line := func(who string, c Counts) string { return "  " + who + ": " + countsText(c, an) }
	var text strings.Builder
	WriteReportText(&text, an, TextOptions{Width: 200})
	out := text.String()
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
	js, err := json.Marshal(an.JSON())
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		PerRank map[string]Counts `json:"per_rank"`
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
	per := map[string]Counts{}
	for r := 0; r < 40; r++ {
		per[strconv.Itoa(r)] = Counts{Recompiles: r % 2} // even ranks one way, odd ranks the other
	}
	per["7"] = Counts{Recompiles: 9}
	g := groupPerRank(per)
	if len(g) != 3 || len(g[0].ranks) != 20 || g[0].ranks[0] != 0 || len(g[1].ranks) != 19 || g[2].ranks[0] != 7 {
		t.Fatalf("groups %+v", g)
	}
	many := map[string]Counts{}
	for r := 0; r < 100; r++ {
		many[strconv.Itoa(r)] = Counts{Recompiles: r}
	}
	var b strings.Builder
	writePerRank(NewTextWriter(&b, TextOptions{Width: 200}), &Report{PerRank: many}, nil)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != maxPerRankLines+2 || lines[len(lines)-1] != "  … "+strconv.Itoa(100-maxPerRankLines)+" more groups of ranks ("+strconv.Itoa(100-maxPerRankLines)+" ranks): --format json has every rank" {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
	// one group past the shown ones is "1 more group of ranks (1 rank)" (it read "1 more groups of ranks (1 ranks)")
	one := map[string]Counts{}
	for r := 0; r <= maxPerRankLines; r++ {
		one[strconv.Itoa(r)] = Counts{Recompiles: r}
	}
	b.Reset()
	writePerRank(NewTextWriter(&b, TextOptions{Width: 200}), &Report{PerRank: one}, nil)
	if !strings.HasSuffix(strings.TrimSpace(b.String()), "  … 1 more group of ranks (1 rank): --format json has every rank") {
		t.Errorf("one more group:\n%s", b.String())
	}
}

// Ranks whose graph breaks and recompiles were not logged were not compared: the agreement says so, never "all
// ranks agree" (two ranks of the NCCL crash without TORCH_LOGS, and the DDP run under `ddp` logging, read
// "all 2 ranks agree (0,1)", and so did r06 under the perf preset), and no disagreement is made up either. A
// difference that was logged stands.
func TestRankAgreementNotComparedWithoutLogging(t *testing.T) {
	for _, name := range []string{"torch-2.11-cuda/g09a_nccl_same_gpu.no_torch_logs.log", "torch-2.14/r06_dist_funcol.perf.log"} {
		a := analyzeRun(t, fx(name), nil)
		ra := a.RankAgreement
		if ra.Agree || ra.NotCompared == "" || !strings.HasPrefix(ra.Summary, "not compared: ") || strings.Contains(ra.Summary, "agree") {
			t.Errorf("%s: agreement %+v", name, ra)
		}
		if ra.Disagree() {
			t.Errorf("%s: a disagreement without a comparison: %+v", name, ra)
		}
		for _, f := range a.Findings {
			if f.Kind == KindRankDisagreement {
				t.Errorf("%s: finding %q", name, f.Title)
			}
		}
		for _, r := range a.Verdict.Reasons {
			if strings.Contains(r, "ranks disagree") {
				t.Errorf("%s: verdict reason %q", name, r)
			}
		}
		var text strings.Builder
		WriteReportText(&text, a, TextOptions{Width: 200})
		if perRank := text.String()[strings.Index(text.String(), "Per rank"):]; !strings.Contains(perRank, "breaks unknown") ||
			strings.Contains(perRank, " 0 breaks") || strings.Contains(perRank, " 0 recompiles") {
			t.Errorf("%s: per-rank counts of what was not logged:\n%s", name, perRank)
		}
		j, _ := json.Marshal(a.JSON().RankAgreement)
		if !strings.Contains(string(j), `"agree":false`) || !strings.Contains(string(j), `"not_compared":"graph breaks and recompiles show no sign they were logged (TORCH_LOGS)`) {
			t.Errorf("%s: JSON %s", name, j)
		}
	}
	// logged (records, or the run's TORCH_LOGS): the comparison is made as before, agreeing or not; ranks of a
	// run that did not complete are not said to agree (what they never reached is not known)
	logged := &RunFacts{Outcome: OutcomeFailed, TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true}
	for _, c := range []struct {
		name        string
		run         *RunFacts
		agree       bool
		notCompared string
	}{
		{"torch-2.14/r05_dist_c10d.triage.log", nil, false, ""},
		{"torch-2.14/ddp_2ranks.ddp.log", nil, true, ""},
		{"torch-2.11-cuda/g09a_nccl_same_gpu.triage.log", logged, false, "the run did not complete (failed)"},
	} {
		ra := analyzeRun(t, fx(c.name), c.run).RankAgreement
		if ra.NotCompared != c.notCompared || ra.Agree != c.agree || ra.Disagree() != (!c.agree && c.notCompared == "") {
			t.Errorf("%s: agreement %+v, want agree=%v, not compared %q", c.name, ra, c.agree, c.notCompared)
		}
	}
}

// A live run's rank that compiled nothing yet is worded as such, not "before the run still running".
func TestIdleRankOfALiveRun(t *testing.T) {
	ev := ReportEvidence{Ranks: []int{0, 1}, TorchSeen: true, GraphBreaksLogged: true, RecompilesLogged: true}
	ra := rankAgreeWithout(ev, nil, []int{0}, "still running", nil)
	if !strings.Contains(ra.Summary, "rank 0 compiled nothing yet") || ra.Disagree() {
		t.Errorf("%+v", ra)
	}
	ra = rankAgreeWithout(ev, nil, []int{0}, "exited with code 1", nil)
	if !strings.Contains(ra.Summary, "before the run exited with code 1") {
		t.Errorf("%+v", ra)
	}
}
