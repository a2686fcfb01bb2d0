package runner

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

var escapedRE = regexp.MustCompile(`(?m)^ESCAPED (\d+)$`)

// escapedPid waits for escape.sh's grandchild to report its pid in stdout.log; the test kills it in the end.
func escapedPid(t *testing.T, runDir string) int {
	t.Helper()
	var pid int
	waitFor(t, 10*time.Second, "the escaped grandchild", func() bool {
		data, _ := os.ReadFile(filepath.Join(runDir, "stdout.log"))
		if m := escapedRE.FindSubmatch(data); m != nil {
			pid, _ = strconv.Atoi(string(m[1]))
		}
		return pid > 0
	})
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

// stopsGrowing checks that a finished run's stdout.log no longer grows.
func stopsGrowing(t *testing.T, runDir string) {
	t.Helper()
	path := filepath.Join(runDir, "stdout.log")
	before, _ := os.Stat(path)
	time.Sleep(200 * time.Millisecond) // the grandchild writes every 50 ms
	if after, _ := os.Stat(path); after.Size() != before.Size() {
		t.Errorf("stdout.log grew from %d to %d bytes after the run ended", before.Size(), after.Size())
	}
}

// A grandchild in its own session and without the run's environment is still the run's: cancel ends it.
func TestCancelEndsAnEscapedGrandchild(t *testing.T) {
	t.Parallel()
	r, err := Start(context.Background(), newStore(t), runs.Spec{Argv: []string{"sh", testdata(t, "escape.sh")},
		Preset: "eager", Grace: testGrace, Stall: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pid := escapedPid(t, r.Dir)
	r.Cancel()
	r.Wait()
	if !processGone(pid) {
		t.Errorf("the escaped grandchild (pid %d) outlived the cancelled run", pid)
	}
	stopsGrowing(t, r.Dir)
}

// When the repro ends by itself, the escaped grandchild is a leftover: ended with the run, which does not
// finish while it writes.
func TestRunEndsItsEscapedGrandchild(t *testing.T) {
	t.Parallel()
	r, err := Start(context.Background(), newStore(t), runs.Spec{Argv: []string{"sh", testdata(t, "escape.sh"), "exit"},
		Preset: "eager", Grace: testGrace, Stall: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pid := escapedPid(t, r.Dir)
	m := r.Wait()
	if !processGone(pid) || m.Leftovers == 0 {
		t.Errorf("grandchild (pid %d) gone %v, leftovers %d: want it counted and ended", pid, processGone(pid), m.Leftovers)
	}
	stopsGrowing(t, r.Dir)
}
