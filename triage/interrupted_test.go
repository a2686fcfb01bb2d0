package triage_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

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
	out := triagetest.ReportText(t, 80, dir)
	for _, bad := range []string{"did not start", "failed", "fix the crash", "printed no torch output"} {
		if strings.Contains(out, bad) {
			t.Errorf("report says %q of an interrupted run:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "interrupted") {
		t.Errorf("report does not say the run was interrupted:\n%s", out)
	}
	code, _, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}}, dir)
	if code == 0 || strings.Contains(errb, ": failed") || !strings.Contains(errb, "interrupted") {
		t.Errorf("check: exit %d, stderr %q", code, errb)
	}
}
