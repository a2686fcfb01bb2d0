package triage_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// report says where each rank waited when the tool stopped a hang, as check does (one source:
// Analysis.StoppedAtWords), in text, Markdown and JSON (stopped_at): only check said it.
func TestReportSaysWhereEachRankWasWhenStopped(t *testing.T) {
	out := triagetest.ReportText(t, 200, divergedHang)
	if want := "Where each rank was when torchtriage stopped the run:\n  rank 0: skip_sync.py:19 (stack dump)\n" +
		"  rank 1: skip_sync.py:21 (stack dump)\n"; !strings.Contains(out, want) {
		t.Errorf("text lacks %q:\n%s", want, out)
	}
	md := triagetest.Render(t, triagetest.ReportPaths(t, divergedHang), "markdown", 80)
	if want := "**Where each rank was when torchtriage stopped the run:**\n\n- rank 0: skip\\_sync.py:19 (stack dump)\n" +
		"- rank 1: skip\\_sync.py:21 (stack dump)\n"; !strings.Contains(md, want) {
		t.Errorf("markdown lacks %q:\n%s", want, md)
	}
	js := triagetest.ReportJSON(t, divergedHang)
	var doc struct {
		StoppedAt []struct {
			Rank  int    `json:"rank"`
			File  string `json:"file"`
			Line  int    `json:"line"`
			Class string `json:"class"`
		} `json:"stopped_at"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.StoppedAt) != 2 || doc.StoppedAt[0].Rank != 0 || doc.StoppedAt[0].Line != 19 || doc.StoppedAt[1].Rank != 1 ||
		doc.StoppedAt[1].Line != 21 || doc.StoppedAt[1].Class != "stack dump" {
		t.Errorf("stopped_at %+v", doc.StoppedAt)
	}
	// a run that completed says nothing of it
	done := triagetest.ReportJSON(t, "../testdata/recorded/compile-off/runs/0001-breaks")
	if strings.Contains(done, `"stopped_at"`) {
		t.Error("a completed run has stopped_at")
	}
}
