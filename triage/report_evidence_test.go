package triage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// The H100 end-to-end run of 2026-11-23: g01 under the breaks preset (TORCH_LOGS without cudagraphs) could not
// print its non-cudagraphable partition or a re-recording; the text says so, and the JSON's evidence must too, or
// its counts.cudagraph_partitions 0 reads as "none". Under the cudagraphs preset (g13b) both were logged.
func TestReportJSONPartitionsLogged(t *testing.T) {
	dir := "../testdata/gpu-e2e/e2e-20261123/"
	for _, c := range []struct {
		run                  string
		partitions, rerecord bool
	}{
		{"0002-breaks", false, false},
		{"0003-cudagraphs", true, true},
		{"0001-cudagraphs", true, true},
	} {
		out := triagetest.ReportJSON(t, dir+c.run)
		var rep struct {
			Evidence map[string]any `json:"evidence"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%s: %v\n%s", c.run, err, out)
		}
		p, okP := rep.Evidence["cudagraph_partitions_logged"].(bool)
		r, okR := rep.Evidence["cudagraph_rerecords_logged"].(bool)
		if !okP || !okR || p != c.partitions || r != c.rerecord {
			t.Errorf("%s: evidence %v, want cudagraph_partitions_logged %v, cudagraph_rerecords_logged %v", c.run, rep.Evidence, c.partitions, c.rerecord)
		}
	}
}

// A log with no torch output counted nothing: the report's counts line says so instead of "graph breaks 0 …"
// (as `torchtriage log` does), in text and Markdown; the JSON keeps its numbers with evidence.torch_seen false.
// A process that died of a plain Python error still shows that error.
func TestReportNoTorchCountsNothing(t *testing.T) {
	plain := filepath.Join(t.TempDir(), "plain.log")
	os.WriteFile(plain, []byte("hello\n"), 0o644)
	for _, format := range []string{"text", "markdown"} {
		out := triagetest.Render(t, triagetest.ReportPaths(t, plain), format, 200)
		if strings.Contains(out, "graph breaks 0") || strings.Contains(out, "| 0 distinct (0 records) |") ||
			!strings.Contains(out, "no torch output: nothing counted") {
			t.Errorf("%s:\n%s", format, out)
		}
	}
	out := triagetest.ReportJSON(t, plain)
	if !strings.Contains(out, `"torch_seen": false`) || !strings.Contains(out, `"graph_breaks": 0`) {
		t.Errorf("json:\n%s", out)
	}
	raised := filepath.Join("..", "testdata", "realtorch", "r22_plain_raise.triage.log")
	out = triagetest.ReportText(t, 200, raised)
	if strings.Contains(out, "graph breaks 0") ||
		!strings.Contains(out, "no torch output: no torch.compile event counted · runtime errors ≥1") { // it died of it: a floor, as the bring-up log words it
		t.Errorf("plain raise:\n%s", out)
	}
}

// With no torch output the next step is to get some, not step 1 "Eager baseline": text, Markdown and JSON say so
// (the step comes before the six, like the crash step).
func TestReportNoTorchNextStepIsEvidence(t *testing.T) {
	plain := filepath.Join(t.TempDir(), "plain.log")
	if err := os.WriteFile(plain, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for format, want := range map[string]string{
		"text":     "Next step: get torch output first: the input holds no torch output at all",
		"markdown": "**Next step: get torch output first:** the input holds no torch output at all.",
		"json":     `"id": "evidence"`,
	} {
		out := triagetest.Render(t, triagetest.ReportPaths(t, plain), format, 200)
		if !strings.Contains(out, want) || strings.Contains(out, "Eager baseline") {
			t.Errorf("%s: want %q:\n%s", format, want, out)
		}
	}
}
