package triage_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// testdata/recorded/diverged-hang (real 2.14.1, 2 gloo ranks): rank 1 took a rank-dependent path that breaks the
// graph (print) and skipped the all_reduce rank 0 waits in; the tool's 30 s timeout stopped the hang. Both ranks
// were blocked in C++ (gloo) and raised no KeyboardInterrupt: only the stack dump taken before the stop says
// where each waited.
const divergedHang = "../testdata/recorded/diverged-hang/runs/0001-breaks"

func TestDivergedHangCheckSaysWhereEachRankWaits(t *testing.T) {
	code, out, errs := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, divergedHang)
	if code != gate.ExitDidNotComplete {
		t.Fatalf("code %d, want %d (did not complete)\n%s%s", code, gate.ExitDidNotComplete, out, errs)
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
	out := triagetest.ReportJSON(t, divergedHang)
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
	if ra.Agree || !strings.HasSuffix(ra.Summary, "; not compared: the run did not complete (stopped by torchtriage (timed out after 30s)), so the 2 ranks (0,1) could not be compared") ||
		strings.Contains(ra.Summary, "agree") {
		t.Errorf("rank agreement %+v", ra)
	}
	for _, f := range rep.Findings {
		if f.Kind == "rank_disagreement" {
			t.Errorf("a rank-disagreement finding of a run that did not complete: %+v", rep.Findings)
		}
	}
	text := triagetest.ReportText(t, 80, divergedHang)
	if !strings.Contains(text, "skip_sync.py:10 step  ×1 rank 1") {
		t.Errorf("text report does not put the print break on rank 1:\n%s", text)
	}
}

// The ranks of the hang compiled different things before it: rank 0's probe recorded 1 compile (step),
// rank 1's 2, the last of them the resume function after its print() break at skip_sync.py:10. Rank agreement
// said only "not compared: the run did not complete", and rank 0 "counts not known": the one thing the on-call
// engineer needs was in the probe files, unsaid. It is said as what each rank had done when the tool stopped the
// run (never as a proof the program diverges, never as agreement), tied to the break the log shows, from one
// field (rank_agreement.compiles_differ) in text, Markdown, JSON and check; no finding, no gate failure.
func TestDivergedHangSaysRanksCompiledDifferently(t *testing.T) {
	const words = "when torchtriage stopped the run, the ranks' probes had recorded different numbers of " +
		"compiles: rank 0: 1 compile (last: [0/0] step at skip_sync.py:6); rank 1: 2 compiles (last: [1/0] " +
		"torch_dynamo_resume_in_step_at_10 at skip_sync.py:10, which resumes after the graph break print() rank 1 logged there)"
	const summary = words + "; not compared: the run did not complete (stopped by torchtriage (timed out after 30s)), " +
		"so the 2 ranks (0,1) could not be compared"
	text := triagetest.ReportText(t, 1000, divergedHang)
	if l := lineWith(text, "Rank agreement:"); l != "Rank agreement: "+summary {
		t.Errorf("text rank agreement\n%q\nwant\n%q", l, "Rank agreement: "+summary)
	}
	md := triagetest.Render(t, triagetest.ReportPaths(t, divergedHang), "markdown", 80)
	if !strings.Contains(md, "**Rank agreement:** "+render.MarkdownEscape(summary)) {
		t.Errorf("markdown lacks the summary:\n%s", md)
	}
	js := triagetest.ReportJSON(t, divergedHang)
	var doc struct {
		RA struct {
			Agree    bool   `json:"agree"`
			Summary  string `json:"summary"`
			Compiles *struct {
				When    string `json:"when"`
				Summary string `json:"summary"`
				Groups  []struct {
					Ranks      string `json:"ranks"`
					Compiles   int    `json:"compiles"`
					Phase      string `json:"phase"`
					CompileID  string `json:"compile_id"`
					Function   string `json:"function"`
					Line       int    `json:"line"`
					AfterBreak string `json:"after_break"`
				} `json:"groups"`
			} `json:"compiles_differ"`
		} `json:"rank_agreement"`
		Findings []struct {
			ID   string `json:"id"`
			Kind string `json:"kind"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.RA.Compiles
	if doc.RA.Agree || doc.RA.Summary != summary || c == nil || c.When != "stopped" || c.Summary != words || len(c.Groups) != 2 {
		t.Fatalf("json rank_agreement %+v", doc.RA)
	}
	g0, g1 := c.Groups[0], c.Groups[1]
	if g0.Ranks != "0" || g0.Compiles != 1 || g0.Phase != "idle" || g0.CompileID != "0/0" || g0.Function != "step" || g0.Line != 6 || g0.AfterBreak != "" ||
		g1.Ranks != "1" || g1.Compiles != 2 || g1.CompileID != "1/0" || g1.Function != "torch_dynamo_resume_in_step_at_10" || g1.Line != 10 {
		t.Errorf("groups %+v", c.Groups)
	}
	// after_break names the graph-break finding the lagging rank resumed after (the hang finding sorts first)
	if i := slices.IndexFunc(doc.Findings, func(f struct {
		ID   string `json:"id"`
		Kind string `json:"kind"`
	}) bool {
		return f.ID == g1.AfterBreak
	}); i < 0 || doc.Findings[i].Kind != "graph_break" {
		t.Errorf("after_break %q, findings %+v", g1.AfterBreak, doc.Findings)
	}
	for _, f := range doc.Findings {
		if f.Kind == "rank_disagreement" {
			t.Errorf("a rank-disagreement finding of a run that did not complete: %+v", doc.Findings)
		}
	}
	code, out, errs := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, divergedHang)
	if code != gate.ExitDidNotComplete || !strings.Contains(errs, "\n"+words+"\n") || strings.Contains(out+errs, "FAIL") {
		t.Errorf("check: code %d\n%s%s", code, out, errs)
	}
	_, cj, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}, Format: "json"}, divergedHang)
	if !strings.Contains(cj, words) {
		t.Errorf("check's JSON does not say it:\n%s", cj)
	}
}
