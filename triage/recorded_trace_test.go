package triage_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// A limit hit known only from TORCH_TRACE (real 2.14.1, testdata/recorded/trace-limit) names the limit and its value
// from the refused compile's fail_reason ("recompile_limit (2)", not "config. (0)"), and the refused compile's
// recompile is of f, the frame's function (its compilation_metrics names none), not "?".
func TestTraceOnlyLimitHit(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "trace-limit", "tr_limit")
	out := triagetest.ReportText(t, 200, dir)
	for _, bad := range []string{"config. (0)", " ?  ", "(0)"} {
		if strings.Contains(out, bad) {
			t.Errorf("report says %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "recompile_limit (2)") {
		t.Errorf("report does not name the limit:\n%s", out)
	}
}

// A failed compile in TORCH_TRACE followed by another compile of the same process (real 2.14.1,
// testdata/recorded/trace-caught): the process went on, so it did not die of it: a compile error the program
// caught, no "first failure", and check does not call the run incomplete.
func TestTraceCompileFailureTheProcessWentOnAfter(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "trace-caught", "tr_caught2")
	out := triagetest.ReportText(t, 200, dir)
	if strings.Contains(out, "First failure") || !strings.Contains(out, "caught by the program") {
		t.Errorf("report:\n%s", out)
	}
	if v := lineWith(out, "Verdict:"); strings.Count(v, "caught by the program") != 2 { // the summary's and the reason's, once each
		t.Errorf("verdict %q", v)
	}
	if code, _, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}}, dir); code == gate.ExitDidNotComplete {
		t.Errorf("check: exit %d, %s", code, errb)
	}
	// the break's playbook (gb-print) describes the split that happens without fullgraph: the finding says the
	// frame did not compile at all, and names the fullgraph playbook beside it
	js := triagetest.ReportJSON(t, dir)
	var doc struct {
		Findings []struct {
			Playbook, Detail string
			Related          []string
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil || len(doc.Findings) != 1 {
		t.Fatalf("%v\n%s", err, js)
	}
	if f := doc.Findings[0]; f.Playbook != "gb-print" || !strings.Contains(f.Detail, "did not compile") ||
		len(f.Related) == 0 || f.Related[0] != "err-fullgraph-unsupported" {
		t.Errorf("finding %+v", f)
	}
}
