package triage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// syntheticLagging copies testdata/recorded/lagging-rank 0001 (real 2.14.1: the tool stopped both ranks; rank 1
// logged a print() break, rank 0 was stopped before its first compiled call) into synthetic_<name>, with rank 0's
// probe edited to count one compiled frame and no graph break: rank 0 reached torch.compile, so it is compared
// (not idle). Where completed, the run metadata says it exited 0 instead. No recorded run holds a difference
// between ranks with records, so the copy says it is synthetic.
func syntheticLagging(t *testing.T, name string, completed bool) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "synthetic_"+name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "recorded", "lagging-rank", "runs", "0001-breaks"))); err != nil {
		t.Fatal(err)
	}
	edit := func(path string, f func(doc map[string]any)) {
		doc := readJSONDoc(t, path)
		f(doc)
		writeJSON(t, path, doc)
	}
	edit(filepath.Join(dir, "probe", "rank0-14070.json"), func(doc map[string]any) {
		doc["counters"] = map[string]any{"frames": map[string]any{"ok": 1, "total": 1}, "stats": map[string]any{"unique_graphs": 1}}
	})
	if completed {
		edit(filepath.Join(dir, "meta.json"), func(doc map[string]any) {
			doc["state"], doc["exit_code"] = "exited", 0
			delete(doc, "stop_reason")
			delete(doc, "timeout_s")
		})
	}
	return dir
}

// A run the tool stopped, where rank 1 logged a break rank 0 did not: every count is a floor, rank 0 may have
// reached it later, so no difference is earned: the rank agreement says the difference where the log ends and
// "not compared" with why, in text, Markdown and JSON, the verdict says no "ranks disagree", and --ranks-agree
// fails on nothing. It read "rank 1
// differs from rank 0: extra graph break print() at lagging.py:7" and the gate failed. The same run, completed,
// still reads (and fails on) that difference.
func TestCutRunDifferenceNotEarned(t *testing.T) {
	dir := syntheticLagging(t, "lagging-rank-compiled-a-frame", false)
	const want = "ranks differ where the log ends: rank 1 has what rank 0 had not shown when it ended: graph break print() at " +
		"lagging.py:7; not compared: the run did not complete (stopped by torchtriage (timed out after 1m0s)), so the 2 ranks " +
		"(0,1) could not be compared"
	out := triagetest.ReportText(t, 1000, dir)
	if l := lineWith(out, "Rank agreement:"); l != "Rank agreement: "+want || strings.Contains(out, "disagree") {
		t.Errorf("rank agreement %q\n%s", l, out)
	}
	md := triagetest.Render(t, triagetest.ReportPaths(t, dir), "markdown", 80)
	if !strings.Contains(md, "**Rank agreement:** "+want) || strings.Contains(md, "extra graph break") {
		t.Errorf("markdown:\n%s", md)
	}
	js := triagetest.ReportJSON(t, dir)
	var doc struct {
		RA struct {
			Agree       bool              `json:"agree"`
			Summary     string            `json:"summary"`
			NotCompared string            `json:"not_compared"`
			Groups      []json.RawMessage `json:"groups"`
		} `json:"rank_agreement"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	if ra := doc.RA; ra.Agree || ra.Summary != want || ra.NotCompared == "" || len(ra.Groups) != 0 || strings.Contains(js, "rank_disagreement") {
		t.Errorf("json rank_agreement %+v", ra)
	}
	code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir)
	if code != gate.ExitDidNotComplete || strings.Contains(out, "FAIL [--ranks-agree]") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	_, out, _ = check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}, Format: "json"}, dir)
	var res struct {
		Failures     []json.RawMessage `json:"failures"`
		NotEvaluated map[string]string `json:"not_evaluated"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Failures) != 0 || res.NotEvaluated["--ranks-agree"] != "--ranks-agree: "+want {
		t.Errorf("check json: %v\n%s", err, out)
	}

	dir = syntheticLagging(t, "lagging-rank-compiled-a-frame-completed", true)
	const differ = "rank 1 differs from rank 0: extra graph break print() at lagging.py:7"
	if out := triagetest.ReportText(t, 1000, dir); lineWith(out, "Rank agreement:") != "Rank agreement: "+differ {
		t.Errorf("completed: rank agreement %q", lineWith(out, "Rank agreement:"))
	}
	if code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir); code != gate.ExitFailed || !strings.Contains(lineWith(out, "FAIL [--ranks-agree]"), differ) {
		t.Errorf("completed: check exit %d\n%s", code, out)
	}
}

// Two graph breaks at one site of the user's code (real 2.14.1, testdata/recorded/ddp-compile 0012: DDP's wrapper
// breaks at ddp_net.py:23 via contextlib.py:109 and via distributed.py:1758) that rank 3 lacks (syntheticRanks, as
// TestEarnedDifferenceFromRanksNotCompared builds it): each item's words tell them apart, in the summary, the JSON
// and the gate. They read "missing graph break DDP wrapper at ddp_net.py:23" twice.
func TestTwoBreaksAtOneSiteWordedApart(t *testing.T) {
	rec := filepath.Join("..", "testdata", "recorded", "ddp-compile", "runs", "0012-breaks")
	dir := syntheticRanks(t, rec, "ddp-compile-silenced-and-breakless-ranks", 4,
		map[int]func(map[string]any){2: func(map[string]any) {}, 3: noBreak})
	const items = "missing graph break DDP wrapper at ddp_net.py:23 via contextlib.py:109, " +
		"missing graph break DDP wrapper at ddp_net.py:23 via distributed.py:1758"
	out := triagetest.ReportText(t, 1000, dir)
	if l := lineWith(out, "Rank agreement:"); !strings.Contains(l, "rank 3 differs from ranks 0,1: "+items+"; ") {
		t.Errorf("rank agreement %q\nwant %q", l, items)
	}
	code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir)
	if code != gate.ExitFailed || !strings.Contains(lineWith(out, "FAIL [--ranks-agree]"), items) {
		t.Errorf("check: exit %d\n%s", code, out)
	}
}
