package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// report and check take a run's number as `log`, `diff` and `bundle` do (the number every message gives): `report
// 1` is `report .torchtriage/runs/0001-…`; a file of that name still wins, and an unknown number says so in one line.
func TestReportAndCheckTakeRunNumbers(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	dir := filepath.Join(store, "0001-breaks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(fx("torch-2.14/gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "stderr.log", string(data))
	writeFile(t, dir, "stdout.log", "")
	zero := 0
	meta, _ := json.Marshal(runs.Meta{ID: 1, Name: "0001-breaks", State: runs.StateExited, ExitCode: &zero,
		TorchLogs: "graph_breaks,recompiles", Argv: []string{"python3", "gb_recompile.py"}})
	writeFile(t, dir, "meta.json", string(meta))
	_, byDir, _ := runCLI("report", "--width", "100", dir)
	code, byNum, errb := runCLI("report", "--store", store, "--width", "100", "1")
	if code != 0 || byNum != byDir {
		t.Errorf("report 1: exit %d, stderr %q\n%s\nwant the report of %s:\n%s", code, errb, byNum, dir, byDir)
	}
	code, _, errb = runCLI("check", "--store", store, "--max-graph-breaks", "0", "1")
	if code != 1 {
		t.Errorf("check 1: exit %d (want 1: the run has breaks), stderr %q", code, errb)
	}
	code, _, errb = runCLI("report", "--store", store, "7")
	if code != 2 || !strings.Contains(errb, "no file 7 and no run 7 in "+store) || strings.Count(errb, "\n") != 1 {
		t.Errorf("report 7: exit %d, stderr %q", code, errb)
	}
}

// A run store of one run given as the input is that run: its meta.json and probe count (the store read as plain
// logs called a caught compile error a death and failed the gate: real 2.6, testdata/recorded/caught-compile).
func TestStoreOfOneRunIsThatRun(t *testing.T) {
	store := filepath.Join("..", "testdata", "recorded", "caught-compile", "runs")
	dir := filepath.Join(store, "0001-breaks")
	codeDir, outDir, _ := runCLI("check", "--no-compile-errors", dir)
	code, out, errb := runCLI("check", "--no-compile-errors", store)
	if code != codeDir || out != outDir || !strings.Contains(errb, "the run store's one run") {
		t.Errorf("store: exit %d %q %q; the run dir: exit %d %q", code, out, errb, codeDir, outDir)
	}
}
