package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/session"
)

// writeProbeFile writes one of the probe's files into runDir/probe.
func writeProbeFile(t *testing.T, runDir, name, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(runDir, "probe"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(runDir, "probe", name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// liveRunIn starts a live run of the model whose directory is dir (no output yet).
func liveRunIn(t *testing.T, m *Model, dir string) *runView {
	t.Helper()
	meta := session.Meta{ID: 1, Name: "0001-breaks", Dir: dir, Preset: "breaks", TorchLogs: "graph_breaks,recompiles",
		Start: fixedNow.Add(-time.Minute), State: session.StateRunning}
	b := session.NewFollower(1, meta.Start).Batch(m.analyzer(), fixedNow)
	b.Meta = &meta
	m.Update(batchMsg{b})
	return m.run(1)
}

// drain runs a command that reads probe files and hands its message to the model.
func drain(t *testing.T, m *Model, r *runView) {
	t.Helper()
	cmd := m.readProbe(r)
	if cmd == nil {
		r.probe.reading = false
		cmd = m.readProbe(r)
	}
	m.Update(cmd())
}

// The header shows the version the probe's start file states as soon as torch is imported, before any exit file.
func TestHeaderShowsTheTorchVersionOfTheProbesStartFile(t *testing.T) {
	m := liveModel(t, 100, 30)
	m.opt.spec.TorchVersion = ""
	dir := t.TempDir()
	r := liveRunIn(t, m, dir)
	if head := strings.SplitN(plain(m), "\n", 2)[0]; strings.Contains(head, "torch 2") || strings.Contains(head, "torch ?") {
		t.Fatalf("no source states a version yet, the header says %q", head)
	}
	writeProbeFile(t, dir, "start-rank0-4242.json", `{"pid": 4242, "rank": 0, "rank_source": "env", "torch": "2.14.1+debian", "time": 1}`)
	m.Update(tickMsg(fixedNow))
	if !r.probe.reading {
		t.Fatal("the tick of a live run does not read the probe files")
	}
	drain(t, m, r)
	if head := strings.SplitN(plain(m), "\n", 2)[0]; !strings.Contains(head, "torch 2.14.1+debian") {
		t.Fatalf("header = %q, want the start file's torch 2.14.1+debian", head)
	}
}

// A log that states no version gets the log format's era, marked as a guess.
func TestHeaderGuessesTheTorchVersionFromTheLogFormatOnlyAsAGuess(t *testing.T) {
	m := openModel(t, 100, 30, "gb_recompile.triage.log")
	head := strings.SplitN(plain(m), "\n", 2)[0]
	if !strings.Contains(head, "torch ? (log format 2.14+)") {
		t.Fatalf("header = %q, want the log format's era marked as a guess", head)
	}
}
