package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// The doctor command's wiring (its checks are package doctor's tests): the flags reach doctor.Run, its output is
// the command's stdout, a ✗ is exit 1, and a usage error exit 2.
func TestDoctorCommand(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "python9") // no python there: its line is ✗
	code, out, errb := runCLI("doctor", "--python", missing, "--store", t.TempDir(), "--format", "json", "--timeout", "30")
	var doc struct {
		Schema  string `json:"schema"`
		Version string `json:"torchtriage"`
		Facts   struct {
			Python string `json:"python"`
		} `json:"facts"`
		Counts map[string]int `json:"counts"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("exit %d, not JSON: %v\n%s\n%s", code, err, out, errb)
	}
	if code != 1 || errb != "" || doc.Schema != "torchtriage.doctor/v1" || doc.Version != Version ||
		doc.Facts.Python != missing || doc.Counts["fail"] == 0 {
		t.Errorf("exit %d, stderr %q, document %+v", code, errb, doc)
	}
	code, out, errb = runCLI("doctor", "--python", missing, "--store", t.TempDir())
	if code != 1 || errb != "" || !strings.HasPrefix(out, "torchtriage doctor · torchtriage "+Version+" · ") {
		t.Errorf("text: exit %d, stderr %q:\n%s", code, errb, out)
	}
	if code, _, errb := runCLI("doctor", "now"); code != 2 || !strings.Contains(errb, `unexpected argument "now"`) {
		t.Errorf("usage error: exit %d %q", code, errb)
	}
	if code, _, _ := runCLI("doctor", "--format", "yaml"); code != 2 {
		t.Errorf("bad --format: exit %d", code)
	}
}
