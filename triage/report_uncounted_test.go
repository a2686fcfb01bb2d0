package triage_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// A real run that compiled nothing (compile-off: TORCHDYNAMO_DISABLE=1; force-eager: no frame compiled; log-counts
// run 3: stopped before it compiled; 2.14.1 all) counts nothing: `report` read "graph breaks 0 distinct (0
// records) · recompiles 0 · …" (Markdown a table of zeros) where `torchtriage log` and the TUI said "nothing
// compiled (…)". Text, Markdown and the gate's counted line now say that phrase in place of the counts, and the
// JSON says why in counts_uncounted, its zeros kept.
func TestReportOfARunThatCompiledNothingCountsNothing(t *testing.T) {
	for _, c := range []struct{ dir, words string }{
		{"compile-off/runs/0001-breaks", "nothing compiled (torch.compile off: TORCHDYNAMO_DISABLE=1)"},
		{"force-eager/runs/0001-breaks", "nothing compiled (no frame compiled, by the probe)"},
		{"log-counts/runs/0003-breaks", "nothing compiled (no frame compiled, by the probe)"},
	} {
		dir := filepath.Join("..", "testdata", "recorded", filepath.FromSlash(c.dir))
		text := triagetest.ReportText(t, 200, dir)
		if lineWith(text, c.words) != c.words || strings.Contains(text, "graph breaks 0") || strings.Contains(text, "graph breaks ≥0") {
			t.Errorf("%s: text:\n%s", c.dir, text)
		}
		md := triagetest.Render(t, triagetest.ReportPaths(t, dir), "markdown", 80)
		if !strings.Contains(md, "\n"+strings.ReplaceAll(c.words, "_", `\_`)+"\n") || strings.Contains(md, "| graph breaks |") {
			t.Errorf("%s: markdown:\n%s", c.dir, md)
		}
		js := triagetest.ReportJSON(t, dir)
		var doc struct {
			Counts          map[string]int              `json:"counts"`
			CountsUncounted struct{ Why, Words string } `json:"counts_uncounted"`
		}
		if err := json.Unmarshal([]byte(js), &doc); err != nil || doc.CountsUncounted.Why != "nothing_compiled" ||
			doc.CountsUncounted.Words != c.words || doc.Counts["graph_breaks"] != 0 {
			t.Errorf("%s: json %v %+v", c.dir, err, doc)
		}
		if strings.Contains(c.dir, "log-counts") {
			continue // a stopped run: the gate says it did not complete, no counted line
		}
		_, gated, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}, AllowNoEvidence: true}, dir)
		if !strings.Contains(gated, "counted: "+c.words) || strings.Contains(gated, "0 graph breaks") {
			t.Errorf("%s: check: %s", c.dir, gated)
		}
	}
}
