package tui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// feedOutput hands the model a live run's batch after the given output (no torch records) arrived at at.
func feedOutput(m *Model, lr *session.Follower, id int, text string, at time.Time) {
	lr.Apply(session.Event{RunID: id, Kind: session.EventOutput, Stream: "stdout", Data: []byte(text)}, at)
	lr.Flush()
	b := lr.Batch(m.analyzer(), at)
	if b.Meta == nil {
		b.Meta = &runs.Meta{ID: id, Name: "0001-breaks", Preset: "breaks", Start: fixedNow.Add(-time.Minute),
			State: runs.StateRunning}
	}
	m.Update(batchMsg{b})
}

// While a run goes and nothing is found, the main screen shows it is alive: lines, bytes, the last line and how
// long ago output came.
func TestLiveRunWithNothingFoundShowsThatItIsAlive(t *testing.T) {
	m := liveModel(t, 80, 24)
	now := fixedNow.Add(-20 * time.Second)
	m.now = func() time.Time { return now }
	lr := session.NewFollower(1, fixedNow.Add(-time.Minute))
	feedOutput(m, lr, 1, "loading data\nepoch 1 step 1 loss 2.31\n", now)
	now = fixedNow.Add(-12 * time.Second)
	feedOutput(m, lr, 1, "epoch 1 step 2 loss 2.12\n", now)
	now = fixedNow
	m.Update(tickMsg(now))
	out := plain(m)
	for _, want := range []string{"alive: 3 lines, 63 B so far", "no output for 12s", "last line: epoch 1 step 2 loss 2.12",
		"Running for 1:00", "no graph breaks so far"} {
		if !strings.Contains(out, want) {
			t.Errorf("screen lacks %q:\n%s", want, out)
		}
	}
}

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
	meta := runs.Meta{ID: 1, Name: "0001-breaks", Dir: dir, Preset: "breaks", TorchLogs: "graph_breaks,recompiles",
		Start: fixedNow.Add(-time.Minute), State: runs.StateRunning}
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

// A log that states no version gets the log format's era, marked as a guess (2.14.1's gb_recompile: GB ids, since
// 2.9; its guards' user stacks are printed by 2.11 too).
func TestHeaderGuessesTheTorchVersionFromTheLogFormatOnlyAsAGuess(t *testing.T) {
	m := openModel(t, 100, 30, "gb_recompile.triage.log")
	head := strings.SplitN(plain(m), "\n", 2)[0]
	if !strings.Contains(head, "torch ? (log format 2.9+)") {
		t.Fatalf("header = %q, want the log format's era marked as a guess", head)
	}
}

// A stalled run whose rank 0 compiles shows what compiles and for how long in the stall banner, and the other
// rank waiting, rather than one undifferentiated stall.
func TestStallBannerSaysWhichRankCompilesWhatForHowLong(t *testing.T) {
	m := liveModel(t, 120, 32)
	dir := t.TempDir()
	r := liveRunIn(t, m, dir)
	pid := os.Getpid() // alive
	since := fixedNow.Add(-130 * time.Second)
	writeProbeFile(t, dir, "compile-rank0-1.json", compileState(pid, 0, "compiling", "forward", since))
	writeProbeFile(t, dir, "compile-rank1-2.json", compileState(pid, 1, "idle", "", since))
	if out := plain(m); strings.Contains(out, "compiling") {
		t.Fatalf("nothing was read yet, the screen says compiling:\n%s", out)
	}
	drain(t, m, r)
	if line := lineWith(t, plain(m), "compiling"); !strings.Contains(line, "⚙ rank 0 compiling `forward` for 2m10s · others waiting") {
		t.Fatalf("status line = %q, want rank 0 compiling forward", line)
	}
	lr := session.NewFollower(1, fixedNow.Add(-time.Minute))
	lr.Apply(session.Event{RunID: 1, Kind: session.EventStalled, Since: fixedNow.Add(-42 * time.Second),
		Note: "rank 0 compiling `forward` [1/0] for 2m8s · rank 1 not compiling (waiting)"}, fixedNow)
	m.Update(batchMsg{lr.Batch(m.analyzer(), fixedNow)})
	drain(t, m, r)
	banner := lineWith(t, plain(m), "no output for")
	for _, want := range []string{"rank 0 compiling `forward` for 2m10s · others waiting · no output for 42s",
		"c/x cancel"} { // the table's short words
		if !strings.Contains(banner, want) {
			t.Errorf("stall banner lacks %q: %q", want, banner)
		}
	}
}

// A rank that never compiled has a start file and no compile-state file: it waits too.
func TestRanksThatNeverCompiledCountAsWaiting(t *testing.T) {
	m := liveModel(t, 120, 32)
	dir := t.TempDir()
	r := liveRunIn(t, m, dir)
	writeProbeFile(t, dir, "start-rank0-1.json", `{"pid": 1, "rank": 0, "torch": "2.14.1"}`)
	writeProbeFile(t, dir, "start-rank1-2.json", `{"pid": 2, "rank": 1, "torch": "2.14.1"}`)
	writeProbeFile(t, dir, "compile-rank1-2.json", compileState(os.Getpid(), 1, "compiling", "inner", fixedNow.Add(-12*time.Second)))
	drain(t, m, r)
	if line := lineWith(t, plain(m), "compiling"); !strings.Contains(line, "rank 1 compiling `inner` for 12s · others waiting") {
		t.Fatalf("status line = %q", line)
	}
}

// compileState is a compile-rank<R>-<pid>.json as the probe writes it (compile id 1/0 of trigger DYNAMO).
func compileState(pid, rank int, phase, function string, since time.Time) string {
	return `{"pid": ` + strconv.Itoa(pid) + `, "rank": ` + strconv.Itoa(rank) + `, "phase": "` + phase +
		`", "trigger": "DYNAMO", "compile_id": "1/0", "function": "` + function + `", "since": ` +
		strconv.FormatFloat(float64(since.UnixNano())/1e9, 'f', 6, 64) + `, "compiles": 1}`
}
