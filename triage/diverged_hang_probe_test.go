package triage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// syntheticHang copies the diverged hang's run dir (testdata/recorded/diverged-hang, real 2.14.1) into
// synthetic_<name> and lets edit change its probe's compile files (by rank: compile-rank0-12723.json,
// compile-rank1-12724.json, as the probe wrote them; a nil document removes the file) and its meta.json.
func syntheticHang(t *testing.T, name string, edit func(compile map[int]map[string]any, meta map[string]any)) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "synthetic_"+name)
	if err := os.CopyFS(dir, os.DirFS(divergedHang)); err != nil {
		t.Fatal(err)
	}
	read := func(path string) map[string]any { return readJSONDoc(t, path) }
	paths := map[int]string{0: filepath.Join(dir, "probe", "compile-rank0-12723.json"), 1: filepath.Join(dir, "probe", "compile-rank1-12724.json")}
	compile := map[int]map[string]any{0: read(paths[0]), 1: read(paths[1])}
	meta := read(filepath.Join(dir, "meta.json"))
	edit(compile, meta)
	for r, p := range paths {
		if compile[r] == nil {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		writeJSON(t, p, compile[r])
	}
	writeJSON(t, filepath.Join(dir, "meta.json"), meta)
	return dir
}

type hangAgreement struct {
	Agree    bool            `json:"agree"`
	Summary  string          `json:"summary"`
	Compiles json.RawMessage `json:"compiles_differ"`
}

func hangRankAgreement(t *testing.T, dir string) hangAgreement {
	t.Helper()
	js := triagetest.ReportJSON(t, dir)
	var doc struct {
		RA hangAgreement `json:"rank_agreement"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	return doc.RA
}

// What the hang's probes wrote, edited: where their compile states do not show a difference, or one rank's is not
// known, nothing is said of them (rank agreement reads as it did); where they differ in a run that completed, it is
// said after the agreement, as what the probes recorded, not as of a stopped run.
func TestDivergedHangProbeVariants(t *testing.T) {
	const notCompared = "not compared: the run did not complete (stopped by torchtriage (timed out after 30s)), so the 2 ranks (0,1) could not be compared"
	for name, edit := range map[string]func(c map[int]map[string]any, meta map[string]any){
		"equal": func(c map[int]map[string]any, _ map[string]any) { // rank 0 as rank 1
			for _, k := range []string{"compile_id", "compiles", "function", "line"} {
				c[0][k] = c[1][k]
			}
		},
		"rank0-missing": func(c map[int]map[string]any, _ map[string]any) { c[0] = nil },
		"rank0-default": func(c map[int]map[string]any, _ map[string]any) { c[0]["rank_source"] = "default" },
	} {
		ra := hangRankAgreement(t, syntheticHang(t, name, edit))
		if ra.Summary != notCompared || ra.Compiles != nil || ra.Agree {
			t.Errorf("%s: %+v", name, ra)
		}
	}
	dir := syntheticHang(t, "completed", func(_ map[int]map[string]any, meta map[string]any) {
		meta["state"], meta["exit_code"] = "exited", 0
		delete(meta, "stop_reason")
		delete(meta, "timeout_s")
	})
	ra := hangRankAgreement(t, dir)
	const words = "the ranks' probes recorded different numbers of compiles, which rank agreement does not compare: " +
		"rank 0: 1 compile (last: [0/0] step at skip_sync.py:6); rank 1: 2 compiles (last: [1/0] torch_dynamo_resume_in_step_at_10 " +
		"at skip_sync.py:10, which resumes after the graph break print() rank 1 logged there)"
	var c struct {
		When string `json:"when"`
	}
	if err := json.Unmarshal(ra.Compiles, &c); err != nil || !strings.HasSuffix(ra.Summary, "; "+words) ||
		strings.Contains(ra.Summary, "stopped") || ra.Agree || c.When != "completed" {
		t.Errorf("completed: %s (%v)", ra.Summary, err)
	}
}
