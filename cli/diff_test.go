package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/compare"
)

func TestCmdDiff(t *testing.T) {
	a, b := fx("torch-2.6/r05_dist_c10d.triage.log"), fx("torch-2.6/r01_branch_print.triage.log")
	var out, errb bytes.Buffer
	if code := Run([]string{"diff", "--format", "json", a, b}, nil, &out, &errb); code != 0 {
		t.Fatalf("code %d %s", code, errb.String())
	}
	var doc struct {
		Schema string             `json:"schema"`
		Items  []compare.DiffItem `json:"items"`
		New    int                `json:"new"`
		Gone   int                `json:"gone"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || doc.Schema != "torchtriage.diff/v1" || doc.New != 3 || doc.Gone != 2 {
		t.Errorf("json %+v %v\n%s", doc, err, out.String())
	}
	if !strings.Contains(out.String(), `"ranks": "0"`) {
		t.Errorf("per-rank ranges missing:\n%s", out.String())
	}
	// a saved run by number
	store := t.TempDir()
	run := filepath.Join(store, "0007-breaks")
	_ = os.MkdirAll(run, 0o755)
	data, _ := os.ReadFile(a)
	_ = os.WriteFile(filepath.Join(run, "stderr.log"), data, 0o644)
	out.Reset()
	if code := Run([]string{"diff", "--store", store, "7", a}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "0 new, 0 gone, 0 changed in count, 2 unchanged") {
		t.Errorf("run 7: %d %s %s", code, out.String(), errb.String())
	}
	for _, args := range [][]string{{a}, {a, b, a}, {"--format", "xml", a, b}, {a, "/nonexistent.log"}, {"--store", store, "8", a}, {"-", "-"}} {
		errb.Reset()
		if code := Run(append([]string{"diff"}, args...), nil, &out, &errb); code != 2 || !strings.HasPrefix(errb.String(), "torchtriage diff: ") {
			t.Errorf("%v: code %d %q", args, code, errb.String())
		}
	}
}
