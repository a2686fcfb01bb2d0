package runner

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

const testGrace = 200 * time.Millisecond

func TestCancelLeavesNoProcessBehind(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	r, err := Start(context.Background(), newStore(t), runs.Spec{
		Argv: []string{"sh", testdata(t, "family.sh")}, Preset: "eager", Grace: testGrace, Stall: -1,
	}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	pids := familyPids(t, r.Dir)
	r.Cancel()
	m := r.Wait()
	for name, pid := range pids {
		if !processGone(pid) {
			t.Errorf("%s (pid %d) still running after Wait", name, pid)
		}
	}
	if m.State != runs.StateKilled || m.Signal != "killed" {
		t.Errorf("state %s signal %q, want killed by SIGKILL (the script ignores INT and TERM)", m.State, m.Signal)
	}
	if kinds := rec.kinds(r.ID); len(kinds) == 0 || kinds[len(kinds)-1] != EventExited {
		t.Errorf("events %v, want EventExited last", kinds)
	}
}

func TestTimeoutLeavesNoProcessBehind(t *testing.T) {
	t.Parallel()
	r, err := Start(context.Background(), newStore(t), runs.Spec{
		Argv: []string{"sh", testdata(t, "family.sh")}, Preset: "eager", Grace: testGrace,
		Timeout: 700 * time.Millisecond, Stall: -1,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pids := familyPids(t, r.Dir)
	m := r.Wait()
	for name, pid := range pids {
		if !processGone(pid) {
			t.Errorf("%s (pid %d) still running after the timeout", name, pid)
		}
	}
	if m.State != runs.StateTimedOut {
		t.Errorf("state %s, want timed_out", m.State)
	}
	disk, err := runs.LoadRun(r.Dir)
	if err != nil || disk.State != runs.StateTimedOut || disk.End == nil {
		t.Errorf("meta.json: %+v, %v; want timed_out with an end time", disk, err)
	}
}

func TestCancelSendsSIGINTFirst(t *testing.T) {
	t.Parallel()
	r, err := Start(context.Background(), newStore(t), runs.Spec{
		Argv: []string{"sh", testdata(t, "interrupt.sh")}, Preset: "eager", Grace: 5 * time.Second, Stall: -1,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "the repro to start", func() bool {
		data, _ := os.ReadFile(filepath.Join(r.Dir, "stdout.log"))
		return strings.Contains(string(data), "waiting")
	})
	start := time.Now()
	r.Cancel()
	m := r.Wait()
	if time.Since(start) > 3*time.Second {
		t.Errorf("took %v: SIGINT alone should have ended it", time.Since(start))
	}
	if m.ExitCode == nil || *m.ExitCode != 130 || m.State != runs.StateKilled {
		t.Errorf("exit %v state %s, want 130 and killed", m.ExitCode, m.State)
	}
	if got := readFile(t, filepath.Join(r.Dir, "stderr.log")); !strings.Contains(got, "got SIGINT") {
		t.Errorf("stderr.log %q lacks the repro's SIGINT report", got)
	}
}

// startHelperTool runs the test binary as "the tool" with one run of argv.
func startHelperTool(t *testing.T, argv string, grace time.Duration, env ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Env = append(cmd.Env, "TT_HELPER_TOOL=1", "TT_ARGV="+argv,
		"TT_STORE="+filepath.Join(t.TempDir(), "runs"), "TT_GRACE="+grace.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	dir := firstLine(t, bufio.NewScanner(out), "RUNDIR ")
	return cmd, dir
}

func TestToolSIGTERMLeavesNoProcessBehind(t *testing.T) {
	t.Parallel()
	tool, dir := startHelperTool(t, "sh "+testdata(t, "family.sh"), testGrace)
	pids := familyPids(t, dir)
	if err := tool.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- tool.Wait() }()
	select {
	case <-done: // by the re-raised SIGTERM, or by main returning once its run ended
	case <-time.After(10 * time.Second):
		t.Fatal("the tool did not exit after SIGTERM")
	}
	for name, pid := range pids {
		if !processGone(pid) {
			t.Errorf("%s (pid %d) outlived the tool", name, pid)
		}
	}
	// the run records why the tool stopped it: the signal the tool got (it read "the tool exited", which blamed
	// nobody for a user's Ctrl-C or a CI job's SIGTERM)
	if m, err := runs.LoadRun(dir); err != nil || m.State != runs.StateKilled || m.StopReason != "torchtriage got SIGTERM" {
		t.Errorf("meta after SIGTERM: state %q, stop reason %q, %v; want killed by torchtriage got SIGTERM", m.State, m.StopReason, err)
	}
}

// The kernel writes the repro's output straight into the run directory, so
// nothing is lost when the tool dies mid-run; its reaper then ends the run.
func TestToolSIGKILLLosesNoByte(t *testing.T) {
	t.Parallel()
	tool, dir := startHelperTool(t, "sh "+testdata(t, "writer.sh"), 4*time.Second)
	waitFor(t, 5*time.Second, "first output", func() bool {
		st, err := os.Stat(filepath.Join(dir, "stdout.log"))
		return err == nil && st.Size() > 0
	})
	if err := tool.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = tool.Wait()
	waitFor(t, 10*time.Second, "the writer to finish after the tool died", func() bool {
		data, _ := os.ReadFile(filepath.Join(dir, "stdout.log"))
		return strings.HasSuffix(string(data), "END\n")
	})
	var wantOut, wantErr strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&wantOut, "out line %d of the writer\n", i)
		fmt.Fprintf(&wantErr, "err line %d of the writer\n", i)
	}
	wantOut.WriteString("END\n")
	if got := readFile(t, filepath.Join(dir, "stdout.log")); got != wantOut.String() {
		t.Errorf("stdout.log has %d bytes, want %d", len(got), wantOut.Len())
	}
	if got := readFile(t, filepath.Join(dir, "stderr.log")); got != wantErr.String() {
		t.Errorf("stderr.log has %d bytes, want %d", len(got), wantErr.Len())
	}
}

func TestToolSIGKILLReaperEndsTheRun(t *testing.T) {
	t.Parallel()
	tool, dir := startHelperTool(t, "sh "+testdata(t, "family.sh"), testGrace)
	pids := familyPids(t, dir)
	if err := tool.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = tool.Wait()
	assertAllGone(t, pids, 10*time.Second)
}

// Without a reaper, the kernel still kills the direct child when the tool
// dies (Pdeathsig); its descendants are then beyond reach.
func TestToolSIGKILLWithoutReaperKillsDirectChild(t *testing.T) {
	t.Parallel()
	tool, dir := startHelperTool(t, "sh "+testdata(t, "family.sh"), testGrace, "TT_NO_REAPER=1")
	pids := familyPids(t, dir)
	t.Cleanup(func() {
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	if err := tool.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = tool.Wait()
	assertAllGone(t, map[string]int{"LEADER": pids["LEADER"]}, 5*time.Second)
}
