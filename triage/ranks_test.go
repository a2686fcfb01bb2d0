package triage_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

func TestRankAgreementSmall(t *testing.T) {
	if ra := ranks.RankAgree(nil, nil); ra.Agree || ra.Disagree() || ra.Summary != "single process" || ra.NotCompared != "no rank prefix in the input" {
		t.Errorf("single process: %+v", ra)
	}
	if ra := ranks.RankAgree([]int{3}, nil); ra.Agree || ra.Disagree() || ra.Summary != "only rank 3 seen" || ra.NotCompared != "only rank 3 seen" {
		t.Errorf("one rank: %+v", ra)
	}
	a := triage.AnalyzeFiles(t, "torch-2.14/ddp_2ranks.ddp.log")
	if ra := a.RankAgreement; !ra.Agree || ra.Summary != "all 2 ranks agree (0,1)" {
		t.Errorf("ddp: %+v", ra)
	}
	if triage.FindingsOf(a, findings.KindRankDisagreement) != nil {
		t.Error("ddp: disagreement finding although ranks agree")
	}
}

func TestCompactRanks(t *testing.T) {
	if got := report.CompactRanks([]int{0, 2, 3, 4, 5, 6, 7}); got != "0,2–7" {
		t.Errorf("%q", got)
	}
	var evens []int
	for r := 0; r < 40; r += 2 {
		evens = append(evens, r)
	}
	if got := report.CompactRanks(evens); got != "0,2,4,6,8,10,12,14,… (20 ranks)" {
		t.Errorf("%q", got)
	}
	if got := text.ParseRanges("0,2-4,7–8,x,9-1"); fmt.Sprint(got) != "[0 2 3 4 7 8]" {
		t.Errorf("parseRanges %v", got)
	}
}

// Ranks whose graph breaks and recompiles were not logged were not compared: the agreement says so, never "all
// ranks agree" (two ranks of the NCCL crash without TORCH_LOGS, and the DDP run under `ddp` logging, read
// "all 2 ranks agree (0,1)", and so did r06 under the perf preset), and no disagreement is made up either. A
// difference that was logged stands.
func TestRankAgreementNotComparedWithoutLogging(t *testing.T) {
	for _, name := range []string{"torch-2.11-cuda/g09a_nccl_same_gpu.no_torch_logs.log", "torch-2.14/r06_dist_funcol.perf.log"} {
		a := analyzeRun(t, Fx(name), nil)
		ra := a.RankAgreement
		if ra.Agree || ra.NotCompared == "" || !strings.HasPrefix(ra.Summary, "not compared: ") || strings.Contains(ra.Summary, "agree") {
			t.Errorf("%s: agreement %+v", name, ra)
		}
		if ra.Disagree() {
			t.Errorf("%s: a disagreement without a comparison: %+v", name, ra)
		}
		for _, f := range a.Findings {
			if f.Kind == findings.KindRankDisagreement {
				t.Errorf("%s: finding %q", name, f.Title)
			}
		}
		for _, r := range a.Verdict.Reasons {
			if strings.Contains(r, "ranks disagree") {
				t.Errorf("%s: verdict reason %q", name, r)
			}
		}
		var txt strings.Builder
		render.WriteReportText(&txt, a, text.Options{Width: 200})
		if perRank := txt.String()[strings.Index(txt.String(), "Per rank"):]; !strings.Contains(perRank, "breaks unknown") ||
			strings.Contains(perRank, " 0 breaks") || strings.Contains(perRank, " 0 recompiles") {
			t.Errorf("%s: per-rank counts of what was not logged:\n%s", name, perRank)
		}
		j, _ := json.Marshal(render.JSONOf(a).RankAgreement)
		if !strings.Contains(string(j), `"agree":false`) || !strings.Contains(string(j), `"not_compared":"graph breaks and recompiles show no sign they were logged (TORCH_LOGS)`) {
			t.Errorf("%s: JSON %s", name, j)
		}
	}
	// logged (records, or the run's TORCH_LOGS): the comparison is made as before, agreeing or not; ranks of a
	// run that did not complete are not said to agree (what they never reached is not known)
	logged := &report.RunFacts{Outcome: report.OutcomeFailed, TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true}
	for _, c := range []struct {
		name        string
		run         *report.RunFacts
		agree       bool
		notCompared string
	}{
		{"torch-2.14/r05_dist_c10d.triage.log", nil, false, ""},
		{"torch-2.14/ddp_2ranks.ddp.log", nil, true, ""},
		{"torch-2.11-cuda/g09a_nccl_same_gpu.triage.log", logged, false, "the run did not complete (failed)"},
	} {
		ra := analyzeRun(t, Fx(c.name), c.run).RankAgreement
		if ra.NotCompared != c.notCompared || ra.Agree != c.agree || ra.Disagree() != (!c.agree && c.notCompared == "") {
			t.Errorf("%s: agreement %+v, want agree=%v, not compared %q", c.name, ra, c.agree, c.notCompared)
		}
	}
}

// A live run's rank that compiled nothing yet is worded as such, not "before the run still running".
func TestIdleRankOfALiveRun(t *testing.T) {
	ev := report.ReportEvidence{Ranks: []int{0, 1}, TorchSeen: true, GraphBreaksLogged: true, RecompilesLogged: true}
	ra := ranks.RankAgreeWithout(ev, nil, []int{0}, "still running", nil)
	if !strings.Contains(ra.Summary, "rank 0 compiled nothing yet") || ra.Disagree() {
		t.Errorf("%+v", ra)
	}
	ra = ranks.RankAgreeWithout(ev, nil, []int{0}, "exited with code 1", nil)
	if !strings.Contains(ra.Summary, "before the run exited with code 1") {
		t.Errorf("%+v", ra)
	}
}
