package triage_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// Ranks agree only on what says which rank printed it: the dist_caught run (2 ranks, real 2.6;
// testdata/recorded/dist-caught) read "all 2 ranks agree (0,1)" while only local rank 1 (torchrun's [default1]:
// tee prefix, no [rankN]:) failed to compile f; its ranks came from the launcher and its one record from no rank.
func TestRanksDoNotAgreeOnRecordsOfNoRank(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "dist-caught", "runs", "0001-breaks")
	out := triagetest.ReportText(t, 200, dir)
	if strings.Contains(out, "agree (0,1)") || !strings.Contains(out, "Rank agreement: not compared: ") {
		t.Errorf("report:\n%s", out)
	}
}

// --ranks-agree does not pass on ranks that were not compared (exit 4, no evidence): the dist_caught run passed.
func TestRanksAgreeGateNeedsTheComparison(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "dist-caught", "runs", "0001-breaks")
	code, out, errs := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir)
	if code != gate.ExitNoEvidence || !strings.Contains(errs+out, "not compared: 1 record carries no rank prefix") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
}

// A run whose probe saw torch imported ran torch, whatever it printed: segv.py (real 2.6) compiled, then died of
// SIGSEGV printing nothing of torch, and read "did not start: the command was killed (segmentation fault) before
// any torch output".
func TestRunThatImportedTorchStarted(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "segv", "runs", "0001-breaks")
	out := triagetest.ReportText(t, 200, dir)
	if strings.Contains(out, "did not start") || strings.Contains(out, "no torch output") || !strings.Contains(out, "segmentation fault") {
		t.Errorf("report:\n%s", out)
	}
	if !strings.Contains(out, "torch 2.6.0+debian") {
		t.Errorf("the probe's torch version is not named:\n%s", out)
	}
}
