package triage_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

type distDoc struct {
	Findings []struct {
		Kind, Title, Playbook string
	} `json:"findings"`
	RankAgreement struct {
		Agree       bool   `json:"agree"`
		NotCompared string `json:"not_compared"`
		Summary     string `json:"summary"`
	} `json:"rank_agreement"`
	Verdict struct {
		State, Summary string
	} `json:"verdict"`
}

func distReport(t *testing.T, dir string) distDoc {
	t.Helper()
	out := triagetest.ReportJSON(t, dir)
	var d distDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return d
}

// A rank the tool's timeout stopped before it ever compiled (rank 0 asleep before its first call: real 2.14.1,
// testdata/recorded/lagging-rank) did not "compile differently": it never got there. The run read "rank 1 differs
// from rank 0: extra graph break print()", a HIGH rank_disagreement finding, --ranks-agree FAIL, and a skew
// finding "rank 1 compiled 2.4 s, rank 0 0.0 s: the others wait for it" (rank 1 was the one waiting).
func TestRankThatNeverCompiledInAStoppedRunIsNotCompared(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "lagging-rank", "runs", "0001-breaks")
	d := distReport(t, dir)
	if d.RankAgreement.NotCompared == "" || !strings.Contains(d.RankAgreement.Summary, "rank 0 compiled nothing") {
		t.Errorf("rank agreement %+v", d.RankAgreement)
	}
	for _, f := range d.Findings {
		if f.Kind == "rank_disagreement" || f.Kind == "compile_time" {
			t.Errorf("finding %+v", f)
		}
	}
	if code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir); strings.Contains(out, "FAIL [--ranks-agree]") {
		t.Errorf("check: %d\n%s", code, out)
	}
}

// The skew finding says the slow rank "missed the cache the faster rank hit" only where the faster rank hit it:
// rank 0 compiled nothing (real 2.14.1, testdata/recorded/compile-wait: only rank 1 calls the compiled f), so it
// hit nothing, and both ranks shared one cache dir (the finding got cache-dir-not-shared).
func TestSkewBlamesNoCacheTheFastRankNeverHit(t *testing.T) {
	d := distReport(t, filepath.Join("..", "testdata", "recorded", "compile-wait", "runs", "0001-breaks"))
	for _, f := range d.Findings {
		if f.Kind == "compile_time" && (strings.Contains(f.Title, "cache") || f.Playbook == "cache-dir-not-shared") {
			t.Errorf("finding %+v", f)
		}
	}
}

// A rank whose collective failed because its peer crashed first ("Connection closed by peer" on rank 0 after rank
// 1's ValueError, torchrun naming rank 1 the root cause: real 2.14.1 and 2.6, testdata/recorded/peer-abort) died
// of that crash, not of its own: the verdict read "2 processes crashed" and both findings were HIGH crashes.
func TestRankThatLostItsPeerIsNotASecondCrash(t *testing.T) {
	for _, runs := range []string{"runs", "runs-2.6"} {
		d := distReport(t, filepath.Join("..", "testdata", "recorded", "peer-abort", runs, "0001-breaks"))
		if strings.Contains(d.Verdict.Summary, "2 processes crashed") || !strings.Contains(d.Verdict.Summary, "1 process crashed") ||
			!strings.Contains(d.Verdict.Summary, "its peer") {
			t.Errorf("%s: verdict %q", runs, d.Verdict.Summary)
		}
		n := 0
		for _, f := range d.Findings {
			if f.Kind == "runtime_error" && strings.Contains(f.Title, "Connection closed by peer") {
				n++
				if f.Playbook != "dist-peer-gone" || !strings.Contains(f.Title, "rank 1") {
					t.Errorf("%s: finding %+v", runs, f)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d peer findings", runs, n)
		}
	}
}

// A run torchtriage stopped (its timeout) before it finished has one next step: let it finish. It read "Eager
// baseline vs compiled" of a run stopped inside import torch or mid-compile (final read of the recorded runs).
func TestNextStepOfARunTheToolStopped(t *testing.T) {
	for _, dir := range []string{
		filepath.Join("..", "testdata", "recorded", "stopped-in-import", "runs", "0001-breaks"),
		filepath.Join("..", "testdata", "recorded", "stopped-dist-hang", "runs", "0001-breaks"),
	} {
		out := triagetest.ReportJSON(t, dir)
		var d struct {
			NextStep struct {
				ID string `json:"id"`
			} `json:"next_step"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil || d.NextStep.ID != "stopped" {
			t.Errorf("%s: next step %q (%v)", dir, d.NextStep.ID, err)
		}
	}
}
