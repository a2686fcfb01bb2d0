package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
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
		_, text, _ := runCLI("report", "--width", "200", dir)
		if lineWith(text, c.words) != c.words || strings.Contains(text, "graph breaks 0") || strings.Contains(text, "graph breaks ≥0") {
			t.Errorf("%s: text:\n%s", c.dir, text)
		}
		_, md, _ := runCLI("report", "--format", "markdown", dir)
		if !strings.Contains(md, "\n"+strings.ReplaceAll(c.words, "_", `\_`)+"\n") || strings.Contains(md, "| graph breaks |") {
			t.Errorf("%s: markdown:\n%s", c.dir, md)
		}
		_, js, _ := runCLI("report", "--format", "json", dir)
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
		_, gate, _ := runCLI("check", "--allow-no-evidence", "--max-graph-breaks", "0", dir)
		if !strings.Contains(gate, "counted: "+c.words) || strings.Contains(gate, "0 graph breaks") {
			t.Errorf("%s: check: %s", c.dir, gate)
		}
	}
}
