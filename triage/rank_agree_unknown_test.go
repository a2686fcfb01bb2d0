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

// Rank agreement of a rank no log record names (testdata/recorded/quiet-rank, real 2.14.1: rank 0 printed no torch
// record; both probes and torchrun show two ranks). It read "rank 1 differs from rank 0: extra graph break print() at
// dist.py:8" as if rank 0 had logged no break, on no stated basis. Its probe's counters earn it here (one frame
// compiled, no graph break counted), and the sentence, the gate's failure and the JSON now say so. Without them
// (its probe file gone) rank 0's counts are not known: the ranks are "not compared", and --ranks-agree has no
// evidence (exit 4), not a failure. A probe that counted some of them (frame compiles that may be recompiles, no
// break) is compared on those: TestRankAgreementComparesEachQuantityTheProbeCounted.
func TestRankAgreementOfARankNoLogRecordNames(t *testing.T) {
	rec := filepath.Join("..", "testdata", "recorded", "quiet-rank", "runs", "0013-breaks")

	out := triagetest.ReportText(t, 300, rec)
	l := lineWith(out, "Rank agreement:")
	if !strings.Contains(l, "rank 1 differs from rank 0: extra graph break print() at dist.py:8") ||
		!strings.Contains(l, "rank 0 as its probe counted (no log record names it): 1 compiled frame, no graph break") {
		t.Errorf("rank agreement %q", l)
	}
	code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, rec)
	if f := lineWith(out, "FAIL [--ranks-agree]"); code != gate.ExitFailed || !strings.Contains(f, "rank 0 as its probe counted") {
		t.Errorf("check: exit %d: %s", code, out)
	}
	js := triagetest.ReportJSON(t, rec)
	var doc struct {
		RA struct {
			FromProbe []struct {
				Rank   int  `json:"rank"`
				Frames *int `json:"probe_frames_compiled"`
			} `json:"from_probe"`
		} `json:"rank_agreement"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil || len(doc.RA.FromProbe) != 1 || doc.RA.FromProbe[0].Rank != 0 ||
		doc.RA.FromProbe[0].Frames == nil || *doc.RA.FromProbe[0].Frames != 1 {
		t.Errorf("from_probe %+v (%v)", doc.RA.FromProbe, err)
	}

	for _, c := range []struct {
		name  string
		probe func(path string) // changes (or removes) rank 0's probe file in a copy of the run
		want  string
	}{
		{"no probe of rank 0", func(p string) { os.Remove(p) },
			"not compared: rank 0's graph breaks and recompiles are not known (no log record names it, and no probe of it recorded Dynamo's counters), so the 2 ranks (0,1) could not be compared"},
	} {
		dir := copyRun(t, rec)
		matches, _ := filepath.Glob(filepath.Join(dir, "probe", "rank0-*.json"))
		if len(matches) != 1 {
			t.Fatalf("probe of rank 0: %v", matches)
		}
		b, _ := os.ReadFile(matches[0])
		if !strings.Contains(string(b), `"frames": {"ok": 1, "total": 1}`) {
			t.Fatalf("rank 0's probe: %.300s", b)
		}
		c.probe(matches[0])
		out := triagetest.ReportText(t, 300, dir)
		if l := lineWith(out, "Rank agreement:"); !strings.Contains(l, c.want) || strings.Contains(l, "differs") {
			t.Errorf("%s: rank agreement %q", c.name, l)
		}
		if strings.Contains(out, "Ranks compile differently") {
			t.Errorf("%s: a disagreement finding:\n%s", c.name, out)
		}
		if code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir); code != gate.ExitNoEvidence || strings.Contains(out, "FAIL [--ranks-agree]") {
			t.Errorf("%s: check: exit %d\n%s%s", c.name, code, out, errb)
		}
	}
}

// copyRun copies a run directory into a temporary one.
func copyRun(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(dir))
	if err := os.CopyFS(out, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return out
}
