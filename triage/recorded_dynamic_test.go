package triage_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// The first recompile on a new int value of a frame's argument is automatic dynamic, as for a tensor's size: torch
// made n a SymInt and compiled no more for n = 2…5 (real 2.14.1 and 2.6, testdata/recorded/int-recompiles). It read
// "MEDIUM fix" with the advice to pass the int as a tensor. A global int (G['K']) is a constant each time, and
// 2.14.1 specialises a module attribute on every value: those stay work.
func TestFirstIntRecompileOfAnArgumentIsAutomaticDynamic(t *testing.T) {
	for _, run := range []string{"0001-breaks", "0002-breaks"} {
		dir := filepath.Join("..", "testdata", "recorded", "int-recompiles", "runs", run)
		js := triagetest.ReportJSON(t, dir)
		var rep struct {
			Findings []struct {
				ID       string `json:"id"`
				Category string `json:"category"`
				Expected bool   `json:"expected"`
				Title    string `json:"title"`
			} `json:"findings"`
			Verdict struct {
				Summary string `json:"summary"`
			} `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(js), &rep); err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, f := range rep.Findings {
			switch {
			case strings.HasSuffix(f.ID, ":value_int:n"):
				seen++
				if !f.Expected || f.Category == "fix" || !strings.Contains(f.Title, "automatic dynamic") {
					t.Errorf("%s: argument n: %+v", run, f)
				}
			case strings.HasSuffix(f.ID, ":value_int:K"):
				seen++
				if f.Expected {
					t.Errorf("%s: global K: %+v", run, f)
				}
			}
		}
		if seen != 2 {
			t.Errorf("%s: findings %+v", run, rep.Findings)
		}
		if run == "0001-breaks" && !strings.Contains(rep.Verdict.Summary, "6 recompiles beyond automatic dynamic") {
			t.Errorf("%s: verdict %q", run, rep.Verdict.Summary)
		}
	}
}

// A recompile is automatic dynamic's expected first only where automatic dynamic was on: the probe recorded
// automatic_dynamic_shapes false (testdata/recorded/automatic-dynamic-off, real 2.14.1; on rank 1 only in the
// 2-rank run), and the log shows the graph compiled at an int's first recompile guarding the next value (k == 1:
// testdata/recorded/probe-unimplemented 0022, dynamic=False). --max-recompiles 0 passed on "1 expected".
func TestRecompileExpectedOnlyUnderAutomaticDynamic(t *testing.T) {
	off := filepath.Join("..", "testdata", "recorded", "automatic-dynamic-off", "runs")
	code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: 0}}, filepath.Join(off, "0025-breaks"))
	if code != 1 || strings.Contains(out, "expected") {
		t.Errorf("0025: exit %d\n%s", code, out)
	}
	out = triagetest.ReportText(t, 300, filepath.Join(off, "0029-breaks"))
	if strings.Contains(out, "expected once · ranks 0,1") || !strings.Contains(out, "1 recompile beyond automatic dynamic") {
		t.Errorf("0029: report:\n%s", out)
	}
	out = triagetest.ReportText(t, 300, filepath.Join("..", "testdata", "recorded", "probe-unimplemented", "runs", "0022-breaks"))
	if !strings.Contains(out, "f recompiles 2×: new int values of k") {
		t.Errorf("0022: report:\n%s", out)
	}
}

// Rank 1 turned automatic dynamic off (testdata/recorded/automatic-dynamic-off 0029, real 2.14.1): both ranks
// logged the same recompile, but their settings differ, which fails --ranks-agree. The report said "all 2 ranks
// agree (0,1)" (text, markdown, JSON) and the checklist could tick the ranks step; now the agreement names the
// settings and the step needs work.
func TestRanksThatLoggedTheSameWithDifferentSettings(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "automatic-dynamic-off", "runs", "0029-breaks")
	out := triagetest.ReportText(t, 300, dir)
	if l := lineWith(out, "Rank agreement:"); !strings.Contains(l, "settings differ: dynamo.automatic_dynamic_shapes") {
		t.Errorf("rank agreement %q", l)
	}
	js := triagetest.ReportJSON(t, dir)
	if !strings.Contains(js, `"settings_differ": [`) {
		t.Errorf("json rank agreement lacks settings_differ")
	}
	if code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir); code != 1 {
		t.Errorf("check --ranks-agree: exit %d\n%s", code, out)
	}
}
