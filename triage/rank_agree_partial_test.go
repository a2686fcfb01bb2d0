package triage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// synthetic3Frames is a test-only copy of testdata/recorded/quiet-rank's run (real 2.14.1: rank 0 printed no torch
// record, rank 1 logged a print() break) whose rank 0 probe is edited to count 3 frame compiles instead of 1 (no
// graph break still): the recorded runs hold no such case. The copy is hand-made, so its name says synthetic_.
func synthetic3Frames(t *testing.T) string {
	t.Helper()
	rec := filepath.Join("..", "testdata", "recorded", "quiet-rank", "runs", "0013-breaks")
	dir := filepath.Join(t.TempDir(), "synthetic_quiet-rank-3-frames")
	if err := os.CopyFS(dir, os.DirFS(rec)); err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "probe", "rank0-*.json"))
	if len(matches) != 1 {
		t.Fatalf("probe of rank 0: %v", matches)
	}
	b, _ := os.ReadFile(matches[0])
	const one, three = `"frames": {"ok": 1, "total": 1}`, `"frames": {"ok": 3, "total": 3}`
	if !strings.Contains(string(b), one) || strings.Contains(string(b), `"graph_break"`) {
		t.Fatalf("rank 0's probe: %.300s", b)
	}
	if err := os.WriteFile(matches[0], []byte(strings.Replace(string(b), one, three, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Rank agreement compares a rank no log record names on each quantity its probe counted. Rank 0's probe counted
// no graph break and 3 frame compiles (which may be recompiles); rank 1 logged a print() break. The ranks were "not
// compared" as a whole, though the difference in breaks is earned (the probe counted rank 0's breaks, the log
// shows rank 1's): now the breaks differ, and only rank 0's recompiles are not compared, by name. The text, the
// Markdown, the JSON and the gate say it in the same words.
func TestRankAgreementComparesEachQuantityTheProbeCounted(t *testing.T) {
	dir := synthetic3Frames(t)
	const differ = "rank 0 differs from rank 1: missing graph break print() at dist.py:8"
	const basis = "rank 0 as its probe counted (no log record names it): no graph break; " +
		"its recompiles not compared (its probe counted 3 frame compiles, which may be recompiles)"
	want := differ + "; " + basis

	out := triagetest.ReportText(t, 300, dir)
	if l := lineWith(out, "Rank agreement:"); l != "Rank agreement: "+want {
		t.Errorf("rank agreement %q\nwant %q", l, "Rank agreement: "+want)
	}
	if !strings.Contains(out, "Ranks compile differently: "+differ) {
		t.Errorf("no disagreement finding:\n%s", out)
	}
	md := triagetest.Render(t, triagetest.ReportPaths(t, dir), "markdown", 80)
	if !strings.Contains(md, "**Rank agreement:** "+render.MarkdownEscape(want)+"\n") {
		t.Errorf("markdown:\n%s", md)
	}
	js := triagetest.ReportJSON(t, dir)
	var doc struct {
		RA struct {
			Agree       bool   `json:"agree"`
			Summary     string `json:"summary"`
			NotCompared string `json:"not_compared"`
			FromProbe   []struct {
				Rank        int      `json:"rank"`
				Frames      *int     `json:"probe_frames_compiled"`
				ComparedOn  []string `json:"compared_on"`
				NotCompared []string `json:"not_compared"`
				Counted     []string `json:"probe_counted"`
			} `json:"from_probe"`
		} `json:"rank_agreement"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil || doc.RA.Summary != want || doc.RA.Agree || doc.RA.NotCompared != "" ||
		len(doc.RA.FromProbe) != 1 {
		t.Fatalf("json rank_agreement %+v (%v)", doc.RA, err)
	}
	fp := doc.RA.FromProbe[0]
	if fp.Rank != 0 || fp.Frames == nil || *fp.Frames != 3 || strings.Join(fp.ComparedOn, ",") != "graph breaks,compile errors,CUDA-graph skips" ||
		strings.Join(fp.NotCompared, ",") != "recompiles" || strings.Join(fp.Counted, ",") != "3 frame compiles, which may be recompiles" {
		t.Errorf("from_probe %+v", fp)
	}
	code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir)
	if f := lineWith(out, "FAIL [--ranks-agree]"); code != gate.ExitFailed || !strings.Contains(f, "rank 0 differs from rank 1: missing graph break print() at dist.py:8") ||
		!strings.Contains(f, basis) {
		t.Errorf("check: exit %d: %s", code, out)
	}
}
