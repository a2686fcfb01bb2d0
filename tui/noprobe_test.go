package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// The Ranks view says why there is no probe data in words true of what is on screen: opened logs that hold none
// (not "demo, --no-probe, or the run is still going", none of which an opened torchrun log is).
func TestNoProbeReasonFitsTheRun(t *testing.T) {
	m := openModel(t, 120, 40, "r05_dist_c10d.triage.log")
	press(m, "R")
	s := plain(m)
	if !strings.Contains(s, "no config recorded in the opened files") || strings.Contains(s, "the run is still going") {
		t.Errorf("opened logs:\n%s", s)
	}
}

// With no rank to show, the Per rank table has no "–" to explain: no "not logged" legend under its header.
func TestRanksViewNoLegendWithoutRows(t *testing.T) {
	m := openModel(t, 80, 24, "../../testdata/fixtures/torch-2.14/gb_recompile.no_torch_logs.log")
	press(m, "R")
	if s := plain(m); strings.Contains(s, "not logged (TORCH_LOGS)") {
		t.Errorf("a legend with no row:\n%s", s)
	}
}

// An opened run directory of a run launched without the probe says so (it read "a run's torch processes write
// it", as if they had); one launched with the probe that wrote nothing says what its directory shows: no process
// finished importing torch (no start file).
func TestNoProbeReasonOfAnOpenedRunDir(t *testing.T) {
	store := t.TempDir()
	exit0 := 0
	dir := writeStoredRun(t, store, runs.Meta{ID: 1, Preset: "breaks", TorchLogs: "graph_breaks,recompiles",
		State: runs.StateExited, ExitCode: &exit0}, "r05_dist_c10d.triage.log")
	abs, _ := filepath.Abs("testdata")
	rel, _ := filepath.Rel(abs, dir)
	m := openModel(t, 120, 40, rel)
	press(m, "R")
	if s := plain(m); !strings.Contains(s, "no config recorded: the run was launched without the probe (--no-probe)") {
		t.Errorf("a run without the probe:\n%s", s)
	}
	probed := writeStoredRun(t, store, runs.Meta{ID: 2, Preset: "breaks", TorchLogs: "graph_breaks,recompiles",
		State: runs.StateExited, ExitCode: &exit0}, "r05_dist_c10d.triage.log")
	raw, _ := os.ReadFile(filepath.Join(probed, "meta.json"))
	var meta runs.Meta
	json.Unmarshal(raw, &meta)
	meta.Env["TORCHTRIAGE_PROBE_DIR"] = filepath.Join(probed, "probe") // as the probe's Install sets it
	raw, _ = json.Marshal(meta)
	os.WriteFile(filepath.Join(probed, "meta.json"), raw, 0o644)
	rel, _ = filepath.Rel(abs, probed)
	m = openModel(t, 120, 40, rel)
	press(m, "R")
	if s := plain(m); !strings.Contains(s, "no config recorded: the probe saw no process of the program finish importing torch") {
		t.Errorf("a probed run that wrote none:\n%s", s)
	}
}

// Ranks of an input without torch output: every per-rank count is "–" and the legend says why (no torch output),
// not "not logged (TORCH_LOGS)" beside zeros of limit hits and errors that could not print either.
func TestRanksViewWithoutTorchOutput(t *testing.T) {
	log := filepath.Join(t.TempDir(), "plain.log")
	os.WriteFile(log, []byte("[rank0]:hello\n[rank1]:hello\n[rank0]:epoch 1\n"), 0o644)
	abs, _ := filepath.Abs("testdata")
	rel, _ := filepath.Rel(abs, log)
	m := openModel(t, 80, 24, rel)
	press(m, "R")
	s := plain(m)
	row := lineWith(t, s, "   r1 ")
	if strings.Contains(row, "0") || strings.Contains(s, "TORCH_LOGS") || !strings.Contains(s, "– no torch output: nothing counted") {
		t.Errorf("Ranks view:\n%s", s)
	}
}

// An input without torch output shows no process: the Ranks view does not call it "single process".
func TestRanksViewOfAnInputWithoutTorch(t *testing.T) {
	log := filepath.Join(t.TempDir(), "empty.log")
	os.WriteFile(log, nil, 0o644)
	abs, _ := filepath.Abs("testdata")
	rel, _ := filepath.Rel(abs, log)
	m := openModel(t, 80, 24, rel)
	press(m, "R")
	s := plain(m)
	if strings.Contains(s, "single process") || !strings.Contains(s, " no torch output: no process to compare") {
		t.Errorf("Ranks view:\n%s", s)
	}
}
