package gate_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// Two ranks in lockstep, only rank 1's batch short at step 30 (testdata/recorded/after-warmup 0008, 2.14.1 under
// torchrun): the compile after warm-up is rank 1's alone, and the verdict is not steady.
func TestCompileAfterWarmupOnOneRank(t *testing.T) {
	dir := testlogs.Path(t, "recorded", "after-warmup", "runs", "0008-breaks")
	got, out, errs := triagetest.CheckPaths(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileAfterWarmup: true}}, dir)
	if got.Exit != gate.ExitFailed || !strings.Contains(out, "1 recompile at step 30 on rank 1: size of x changed 8 → 5") {
		t.Fatalf("exit %d\n%s%s", got.Exit, out, errs)
	}
	a := triagetest.ReportPaths(t, dir)
	if aw := a.AfterWarmup; aw.Processes != 2 || len(aw.Events) != 1 || aw.Events[0].Rank != 1 {
		t.Errorf("after warm-up %+v", aw)
	}
	if a.Verdict.Steady || !strings.Contains(a.Verdict.Summary, "1 compile after warm-up") {
		t.Errorf("verdict %q", a.Verdict.Summary)
	}
}

// A code path warm-up never ran (an evaluation after step 20, testdata/recorded/after-warmup 0009, 2.14.1) is a
// frame's first compile after warm-up, no guard failed: its own words and the new-path playbook.
func TestFirstCompileAfterWarmup(t *testing.T) {
	dir := testlogs.Path(t, "recorded", "after-warmup", "runs", "0009-breaks")
	got, out, errs := triagetest.CheckPaths(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileAfterWarmup: true}}, dir)
	if got.Exit != gate.ExitFailed || len(got.Result.Failures) != 1 || got.Result.Failures[0].Playbook != "warmup-new-path" ||
		!strings.Contains(out, "1 compile at step 21: `evaluate` compiled for the first time (a code path warm-up did not run)") {
		t.Fatalf("exit %d %+v\n%s%s", got.Exit, got.Result.Failures, out, errs)
	}
}

// check --no-compile-after-warmup on the recorded real runs (testdata/recorded/after-warmup, 2.14.1 and 2.6, each
// launched with --warmup-steps 5): the training loop whose batch shrinks at step 30 fails with one recompile at
// step 30 and its guard; the same loop with full batches passes; the serving loop with no optimizer fails at
// request 20 by its step marker; without a marker it has no steps, so nothing is judged (exit 4).
func TestNoCompileAfterWarmupOnRecordedRuns(t *testing.T) {
	rules := gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileAfterWarmup: true}
	for _, c := range []struct {
		run, torch, source string
		exit, step         int
		why                string
	}{
		{"0001-breaks", "2.14.1", "optimizer", gate.ExitFailed, 30, "size of x changed 8 → 5"},
		{"0002-breaks", "2.14.1", "optimizer", gate.ExitPassed, -1, "steady state: after warm-up (5 steps, by SGD.step()): nothing compiled (40 steps seen)"},
		{"0003-breaks", "2.14.1", "marker", gate.ExitFailed, 20, "size of tokens dim 1 changed 8 → 12"},
		{"0004-breaks", "2.14.1", "time", gate.ExitNoEvidence, -1, "no step was seen"},
		{"0005-breaks", "2.6", "optimizer", gate.ExitFailed, 30, "size of x changed 8 → 5"},
		{"0006-breaks", "2.6", "optimizer", gate.ExitPassed, -1, ""},
		{"0007-breaks", "2.6", "marker", gate.ExitFailed, 20, "size of tokens dim 1 changed 8 → 12"},
	} {
		dir := testlogs.Path(t, "recorded", "after-warmup", "runs", c.run)
		got, out, errs := triagetest.CheckPaths(t, gate.RunOptions{Rules: rules, Format: "text"}, dir)
		if got.Exit != c.exit || !strings.Contains(out+errs, c.why) {
			t.Errorf("%s (%s): exit %d, want %d with %q\n%s%s", c.run, c.torch, got.Exit, c.exit, c.why, out, errs)
		}
		if c.exit == gate.ExitFailed {
			if n := len(got.Result.Failures); n != 1 || got.Result.Failures[0].Playbook != "warmup-new-size" {
				t.Errorf("%s: want one failure with playbook warmup-new-size, got %+v", c.run, got.Result.Failures)
			}
		}
		a := triagetest.ReportPaths(t, dir)
		aw := a.AfterWarmup
		if aw == nil || aw.StepSource != c.source || aw.WarmupSteps != 5 {
			t.Fatalf("%s: after_warmup %+v, want source %s, warm-up 5", c.run, aw, c.source)
		}
		if c.source == "time" { // seconds since the probe started (torch's import included): placed, never judged
			if aw.Judged() || len(a.Findings) > 0 && a.Findings[0].Kind == "compile_after_warmup" {
				t.Errorf("%s: judged by seconds: %+v", c.run, aw)
			}
			continue
		}
		if c.step < 0 {
			if len(aw.Events) != 0 {
				t.Errorf("%s: events %+v, want none", c.run, aw.Events)
			}
			continue
		}
		if len(aw.Events) != 1 || aw.Events[0].Step != c.step || aw.Events[0].Kind != "recompile" || aw.Events[0].Rank != -1 ||
			aw.Events[0].CompileID != "0/1" || !strings.Contains(aw.Events[0].Reason, "size mismatch at index") {
			t.Errorf("%s: events %+v, want one recompile [0/1] at step %d of the process (no rank) with its guard", c.run, aw.Events, c.step)
		}
	}
}

// The report's JSON carries after_warmup as docs/report.md documents it, and its text says it in one line with
// the clock that placed the steps.
func TestAfterWarmupInReport(t *testing.T) {
	dir := testlogs.Path(t, "recorded", "after-warmup", "runs", "0001-breaks")
	var doc struct {
		AfterWarmup struct {
			WarmupSteps int    `json:"warmup_steps"`
			StepSource  string `json:"step_source"`
			Events      []struct {
				Kind      string `json:"kind"`
				Rank      int    `json:"rank"`
				Step      int    `json:"step"`
				CompileID string `json:"compile_id"`
				Frame     string `json:"frame"`
				Site      string `json:"site"`
				Reason    string `json:"reason"`
			} `json:"events"`
		} `json:"after_warmup"`
		Findings []struct {
			Kind     string `json:"kind"`
			Playbook string `json:"playbook"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(triagetest.ReportJSON(t, dir)), &doc); err != nil {
		t.Fatal(err)
	}
	aw := doc.AfterWarmup
	if aw.WarmupSteps != 5 || aw.StepSource != "optimizer" || len(aw.Events) != 1 {
		t.Fatalf("after_warmup %+v", aw)
	}
	e := aw.Events[0]
	if e.Kind != "recompile" || e.Step != 30 || e.Frame != "forward" || !strings.HasSuffix(e.Site, "train_short_batch.py:11") ||
		e.Reason != "tensor 'x' size mismatch at index 0. expected 8, actual 5" {
		t.Errorf("event %+v", e)
	}
	found := false
	for _, f := range doc.Findings {
		found = found || f.Kind == "compile_after_warmup" && f.Playbook == "warmup-new-size"
	}
	if !found {
		t.Errorf("no compile_after_warmup finding with warmup-new-size: %+v", doc.Findings)
	}
	txt := triagetest.ReportText(t, 200, dir)
	want := "Steady state: after warm-up (5 steps, by SGD.step()): 1 recompile at step 30: size of x changed 8 → 5"
	if !strings.Contains(txt, want) {
		t.Errorf("text lacks %q:\n%s", want, txt)
	}
}
