package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// logDir is a new directory holding a fixture log with graph breaks as name.
func logDir(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(fx("torch-2.14/gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, name, string(data))
	return dir
}

// `report` of a run directory whose tool died says that the run was interrupted.
func TestReportOfAnInterruptedRunWarns(t *testing.T) {
	dir := logDir(t, "stderr.log")
	meta, _ := json.Marshal(runs.Meta{ID: 3, Name: "0003-breaks", State: runs.StateRunning,
		Supervisor: &runs.Supervisor{Pid: os.Getpid(), Start: 1}}) // a pid now running another process
	writeFile(t, dir, "meta.json", string(meta))
	code, out, errb := runCLI("report", dir)
	if code != 0 || !strings.Contains(out, "graph break") {
		t.Fatalf("exit %d, stderr %q", code, errb)
	}
	if !strings.Contains(errb, "warning: run 0003-breaks was interrupted") {
		t.Errorf("stderr %q lacks the interrupted warning", errb)
	}
}
