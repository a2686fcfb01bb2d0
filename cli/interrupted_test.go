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

// An interrupted run (its supervisor gone, so its end never recorded) that printed no torch output did start: the
// report's verdict, next step and gate do not call it a command that failed or did not start, nor ask to fix a
// crash of the program (before, RunFactsOf made it OutcomeFailed: "did not start: the command failed before any
// torch output", "fix the crash first").
func TestInterruptedSilentRunIsNotBlamedOnTheProgram(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "stdout.log", "")
	writeFile(t, dir, "stderr.log", "")
	meta, _ := json.Marshal(runs.Meta{ID: 4, Name: "0004-breaks", State: runs.StateRunning, TorchLogs: "graph_breaks,recompiles",
		Argv: []string{"python3", "train.py"}, Supervisor: &runs.Supervisor{Pid: os.Getpid(), Start: 1}})
	writeFile(t, dir, "meta.json", string(meta))
	_, out, _ := runCLI("report", dir)
	for _, bad := range []string{"did not start", "failed", "fix the crash", "printed no torch output"} {
		if strings.Contains(out, bad) {
			t.Errorf("report says %q of an interrupted run:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "interrupted") {
		t.Errorf("report does not say the run was interrupted:\n%s", out)
	}
	code, _, errb := runCLI("check", "--max-graph-breaks", "0", dir)
	if code == 0 || strings.Contains(errb, ": failed") || !strings.Contains(errb, "interrupted") {
		t.Errorf("check: exit %d, stderr %q", code, errb)
	}
}
