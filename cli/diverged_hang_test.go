package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// testdata/recorded/diverged-hang (real 2.14.1, 2 gloo ranks): rank 1 took a rank-dependent path that breaks the
// graph (print) and skipped the all_reduce rank 0 waits in; the tool's 30 s timeout stopped the hang. Both ranks
// were blocked in C++ (gloo) and raised no KeyboardInterrupt: only the stack dump taken before the stop says
// where each waited.
const divergedHang = "../testdata/recorded/diverged-hang/runs/0001-breaks"

func TestDivergedHangCheckSaysWhereEachRankWaits(t *testing.T) {
	code, out, errs := runCheck(t, "--ranks-agree", divergedHang)
	if code != exitDidNotComplete {
		t.Fatalf("code %d, want %d (did not complete)\n%s%s", code, exitDidNotComplete, out, errs)
	}
	for _, want := range []string{
		"stopped by torchtriage (timed out after 30s)",
		"where each rank was when torchtriage stopped the run:\n  rank 0: skip_sync.py:19 (stack dump)\n  rank 1: skip_sync.py:21 (stack dump)\n",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(out+errs, "FAIL") {
		t.Errorf("a run that did not complete failed a rule:\n%s%s", out, errs)
	}
}

func TestDivergedHangReportClaimsNoDisagreement(t *testing.T) {
	code, out, errs := runCLI("report", "--format", "json", divergedHang)
	if code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	var rep struct {
		RankAgreement struct {
			Agree       bool   `json:"agree"`
			Summary     string `json:"summary"`
			NotCompared string `json:"not_compared"`
		} `json:"rank_agreement"`
		Findings []struct {
			Kind string `json:"kind"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	ra := rep.RankAgreement
	if ra.Agree || ra.Summary != "not compared: the run did not complete (stopped by torchtriage (timed out after 30s)), so the 2 ranks (0,1) could not be compared" {
		t.Errorf("rank agreement %+v", ra)
	}
	for _, f := range rep.Findings {
		if f.Kind == "rank_disagreement" {
			t.Errorf("a rank-disagreement finding of a run that did not complete: %+v", rep.Findings)
		}
	}
	_, text, _ := runCLI("report", divergedHang)
	if !strings.Contains(text, "skip_sync.py:10 step  ×1 rank 1") {
		t.Errorf("text report does not put the print break on rank 1:\n%s", text)
	}
}
