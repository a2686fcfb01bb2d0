package probe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadDirKeepsGoodFilesAndNamesBadOnes(t *testing.T) {
	runDir := t.TempDir()
	dir := Dir(runDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"rank1-20.json":    `{"rank": 1, "pid": 20, "torch": "2.14.1", "counters": {"graph_break": {"x": 2}}}`,
		"rank0-30.json":    `{"rank": 0, "pid": 30, "config": {"dynamo.recompile_limit": 8}}`,
		"rank0-10.json":    `{"rank": 0, "pid": 10}`,
		"rank2-40.json":    `{"rank": 2, "pid": 40, "counters": {"graph_break": {"x": "many"}}}`,
		"rank3-50.json":    `{"rank": 3,`,
		"rank4-60.json":    `{"rank": 4}`,
		"ready-10":         "123\n",
		"notes.json":       `{}`,
		"sitecustomize.py": "",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	infos, errs := ReadDir(runDir)
	var order []string
	for _, in := range infos {
		order = append(order, filepath.Base(in.File))
	}
	if got := strings.Join(order, " "); got != "rank0-10.json rank0-30.json rank1-20.json" {
		t.Errorf("read %q, want ranks then pids in order", got)
	}
	if len(infos) == 3 && (infos[2].Counters["graph_break"]["x"] != 2 || infos[1].Config["dynamo.recompile_limit"] != 8.0) {
		t.Errorf("decoded wrongly: %+v", infos)
	}
	if len(errs) != 3 {
		t.Fatalf("want 3 errors (bad number, truncated, no pid), got %v", errs)
	}
	for i, name := range []string{"rank2-40.json", "rank3-50.json", "rank4-60.json"} {
		if !strings.Contains(errs[i].Error(), name) {
			t.Errorf("error %d does not name %s: %v", i, name, errs[i])
		}
	}
	if infos, errs := ReadDir(filepath.Join(runDir, "nothing")); infos != nil || errs != nil {
		t.Errorf("missing probe dir: %v %v", infos, errs)
	}
}
