package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

func TestStartRecordsOutputAndMeta(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	store := newStore(t)
	r, err := Start(context.Background(), store, runs.Spec{
		Argv: []string{"sh", testdata(t, "echo.sh"), "3"}, TorchVersion: "2.14",
	}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Wait()
	if m.State != runs.StateExited || m.ExitCode == nil || *m.ExitCode != 3 {
		t.Fatalf("state %s exit %v, want exited 3", m.State, m.ExitCode)
	}
	if filepath.Base(r.Dir) != "0001-breaks" || m.Name != "0001-breaks" {
		t.Errorf("run dir %s, want 0001-breaks", r.Dir)
	}
	wantOut := "hello stdout\nTORCH_LOGS=graph_breaks,recompiles TORCHDYNAMO_DISABLE=unset\n"
	if got := readFile(t, filepath.Join(r.Dir, "stdout.log")); got != wantOut {
		t.Errorf("stdout.log = %q, want %q", got, wantOut)
	}
	if got := readFile(t, filepath.Join(r.Dir, "stderr.log")); got != "hello stderr\n" {
		t.Errorf("stderr.log = %q", got)
	}
	combined := readFile(t, filepath.Join(r.Dir, "combined.log"))
	if len(combined) != len(wantOut)+len("hello stderr\n") || !strings.Contains(combined, "hello stderr\n") {
		t.Errorf("combined.log = %q, want both streams", combined)
	}
	if got := rec.output(r.ID, "stdout"); got != wantOut {
		t.Errorf("stdout events carried %q", got)
	}
	if got := rec.output(r.ID, "stderr"); got != "hello stderr\n" {
		t.Errorf("stderr events carried %q", got)
	}
	if kinds := rec.kinds(r.ID); !slices.Equal(kinds, []EventKind{EventExited}) {
		t.Errorf("non-output events %v, want [exited]", kinds)
	}
	disk, err := runs.LoadRun(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if disk.TorchLogs != "graph_breaks,recompiles" || disk.Env["PYTHONUNBUFFERED"] != "1" ||
		disk.Preset != "breaks" || disk.End == nil || disk.DurationS <= 0 || disk.Pid == 0 {
		t.Errorf("meta.json incomplete: %+v", disk)
	}
	for _, sub := range []string{"trace", "probe"} {
		if st, err := os.Stat(filepath.Join(r.Dir, sub)); err != nil || !st.IsDir() {
			t.Errorf("run dir lacks %s/", sub)
		}
	}
}

func TestStartFailureIsRecorded(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	store := newStore(t)
	_, err := Start(context.Background(), store, runs.Spec{Argv: []string{"/nonexistent/repro-binary"}}, rec.sink)
	if err == nil || !strings.Contains(err.Error(), "failed to start") {
		t.Fatalf("err = %v, want a failed-to-start error", err)
	}
	list, lerr := store.List()
	if lerr != nil || len(list) != 1 || list[0].State != runs.StateFailedToStart || list[0].Error == "" {
		t.Fatalf("store has %+v, %v; want one failed_to_start run with its error", list, lerr)
	}
	if kinds := rec.kinds(list[0].ID); !slices.Equal(kinds, []EventKind{EventError}) {
		t.Errorf("events %v, want [error]", kinds)
	}
	if _, err := Start(context.Background(), store, runs.Spec{}, nil); err == nil {
		t.Error("an empty command started")
	}
	if _, err := Start(context.Background(), store, runs.Spec{Argv: []string{"true"}, Preset: "nope"}, nil); err == nil {
		t.Error("an unknown preset started")
	}
}

func TestStallDetection(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	r, err := Start(context.Background(), newStore(t), runs.Spec{
		Argv: []string{"sh", testdata(t, "stall.sh"), "1"}, Preset: "eager", Stall: 300 * time.Millisecond,
	}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "the stall", func() bool { return r.State() == runs.StateStalled })
	waitFor(t, 500*time.Millisecond, "meta.json to say stalled", func() bool {
		disk, err := runs.LoadRun(r.Dir)
		return err == nil && disk.State == runs.StateStalled
	})
	m := r.Wait()
	if kinds := rec.kinds(r.ID); !slices.Equal(kinds, []EventKind{EventStalled, EventResumed, EventExited}) {
		t.Errorf("events %v, want stalled, resumed, exited", kinds)
	}
	if len(m.Stalls) != 1 || m.Stalls[0].Resumed == nil || m.Stalls[0].Detected.Sub(m.Stalls[0].Since) < 300*time.Millisecond {
		t.Errorf("stalls %+v, want one resumed stall of >= 300ms", m.Stalls)
	}
	for _, e := range rec.all() {
		if e.Kind == EventStalled && e.Since.IsZero() {
			t.Error("EventStalled without Since")
		}
	}
	if m.State != runs.StateExited {
		t.Errorf("final state %s", m.State)
	}
}

func readPid(dir, name string) int {
	data, err := os.ReadFile(filepath.Join(dir, "probe", name))
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return n
}

func TestDumpStacksSignalsOnlyRegisteredPids(t *testing.T) {
	t.Parallel()
	outsider := exec.Command("sleep", "30") // alive, but not part of the run
	if err := outsider.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = outsider.Process.Kill(); _ = outsider.Wait() }()
	rec := &recorder{}
	spec := runs.Spec{Preset: "eager", Grace: testGrace, Stall: -1}
	spec.StackTargets = func(runDir string) []int {
		return []int{readPid(runDir, "dumper.pid"), outsider.Process.Pid, 999999}
	}
	store := newStore(t)
	spec.Argv = []string{"sh", testdata(t, "dumper.sh"), filepath.Join(store.Dir, "0001-eager")}
	r, err := Start(context.Background(), store, spec, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Cancel()
	waitFor(t, 5*time.Second, "pid files", func() bool {
		return readPid(r.Dir, "dumper.pid") > 0 && readPid(r.Dir, "plain.pid") > 0
	})
	n, err := r.DumpStacks()
	if err != nil || n != 1 {
		t.Fatalf("DumpStacks = %d, %v; want 1 (only the registered dumper of the run)", n, err)
	}
	dumper := readPid(r.Dir, "dumper.pid")
	waitFor(t, 5*time.Second, "the stack dump", func() bool {
		return strings.Contains(rec.output(r.ID, "stdout"), "STACKS from "+strconv.Itoa(dumper))
	})
	if processGone(readPid(r.Dir, "plain.pid")) {
		t.Error("the unregistered process of the run got SIGUSR1")
	}
	if processGone(outsider.Process.Pid) {
		t.Error("a process outside the run got SIGUSR1")
	}
	r.Cancel()
	r.Wait()
	if _, err := r.DumpStacks(); err == nil {
		t.Error("DumpStacks on a finished run succeeded")
	}
	noHook, err := Start(context.Background(), store, runs.Spec{Argv: []string{"true"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := noHook.DumpStacks(); err == nil {
		t.Error("DumpStacks without StackTargets succeeded")
	}
	noHook.Wait()
}

func TestUnknownTorchLogsNameRelaunches(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	store := newStore(t)
	r, err := Start(context.Background(), store, runs.Spec{
		Argv: []string{"sh", testdata(t, "fake_torch.sh")}, Logs: []string{"graph_breaks", "nonexistent_thing"},
	}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	first := r.Wait()
	next := r.Relaunched()
	if next == nil {
		t.Fatalf("no relaunch; first run: %+v", first)
	}
	last := r.WaitLast()
	if first.RelaunchedAs != next.Meta().Name || last.RelaunchedFrom != first.Name {
		t.Errorf("links: %q -> %q, %q <- %q", first.Name, first.RelaunchedAs, last.Name, last.RelaunchedFrom)
	}
	if !strings.Contains(first.RelaunchNote, "nonexistent_thing") || !strings.Contains(last.RelaunchNote, "nonexistent_thing") {
		t.Errorf("notes %q / %q do not name the dropped log", first.RelaunchNote, last.RelaunchNote)
	}
	if last.TorchLogs != "graph_breaks,recompiles" || !slices.Contains(last.DroppedLogs, "nonexistent_thing") {
		t.Errorf("relaunch TORCH_LOGS %q dropped %v", last.TorchLogs, last.DroppedLogs)
	}
	if last.State != runs.StateExited || *last.ExitCode != 0 {
		t.Errorf("relaunch ended %s (exit %s, signal %q)", last.State, exitCode(last), last.Signal)
	}
	if got := rec.output(next.ID, "stdout"); got != "ran with TORCH_LOGS=graph_breaks,recompiles\n" {
		t.Errorf("relaunch printed %q", got)
	}
	var order []string
	for _, e := range rec.all() {
		if e.Kind != EventOutput {
			order = append(order, e.Kind.String()+"#"+strconv.Itoa(e.RunID))
		}
		if e.Kind == EventRelaunched && (!strings.Contains(e.Note, "nonexistent_thing") || e.RunID != next.ID) {
			t.Errorf("relaunch event %+v", e)
		}
	}
	want := []string{"exited#1", "relaunched#2", "exited#2"}
	if !slices.Equal(order, want) {
		t.Errorf("events %v, want %v", order, want)
	}
	disk, _ := runs.LoadRun(r.Dir)
	if disk.RelaunchedAs != "0002-custom" {
		t.Errorf("meta.json of the first run: relaunched_as %q", disk.RelaunchedAs)
	}
}

func TestOtherFailuresDoNotRelaunch(t *testing.T) {
	t.Parallel()
	r, err := Start(context.Background(), newStore(t), runs.Spec{Argv: []string{"sh", testdata(t, "port_in_use.sh")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Wait(); r.Relaunched() != nil || m.RelaunchedAs != "" || *m.ExitCode != 1 {
		t.Errorf("port-in-use failure relaunched or misrecorded: %+v", m)
	}
}

func TestContextCancelStopsRun(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	r, err := Start(ctx, newStore(t), runs.Spec{Argv: []string{"sleep", "30"}, Preset: "eager", Grace: testGrace}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	done := make(chan runs.Meta, 1)
	go func() { done <- r.Wait() }()
	select {
	case m := <-done:
		if m.State != runs.StateKilled {
			t.Errorf("state %s, want killed", m.State)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling the context did not stop the run")
	}
}

// exitCode is a run's exit status as text, "none" where it has none (killed by a signal, never started).
func exitCode(m runs.Meta) string {
	if m.ExitCode == nil {
		return "none"
	}
	return strconv.Itoa(*m.ExitCode)
}
