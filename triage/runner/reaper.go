package runner

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// A reaper is a copy of the tool, started next to each run, that outlives the
// tool: it holds the read end of a pipe whose write end only the tool has.
// When the pipe closes (run over, tool exited, or tool SIGKILLed) it ends
// whatever is left of the run with the SIGINT, SIGTERM, SIGKILL ladder, so
// even grandchildren and torchrun ranks die with torchtriage.
const (
	reaperEnvPrefix = "TORCHTRIAGE_REAPER"
	reaperEnv       = reaperEnvPrefix
	reaperTokenEnv  = reaperEnvPrefix + "_TOKEN"
	reaperGraceEnv  = reaperEnvPrefix + "_GRACE_MS"
)

var reaperEnabled atomic.Bool

// MaybeRunReaper must be the first call in main(). In a process started as a
// run's reaper it does the reaper's work and exits; in the tool it enables
// reapers for Start and returns. Without this call Start falls back to
// Pdeathsig=SIGKILL on the direct child only.
func MaybeRunReaper() {
	if os.Getenv(reaperEnv) != "1" {
		reaperEnabled.Store(true)
		return
	}
	ms, _ := strconv.Atoi(os.Getenv(reaperGraceEnv))
	os.Exit(reaperMain(os.Stdin, os.Getenv(reaperTokenEnv), time.Duration(ms)*time.Millisecond))
}

type reaperHandle struct {
	w *os.File
}

// startReaper starts the reaper of a run; nil when reapers are not enabled
// or it cannot start.
func startReaper(token string, grace time.Duration, dir string) *reaperHandle {
	if !reaperEnabled.Load() {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	defer r.Close()
	cmd := exec.Command(exe)
	cmd.Dir = dir
	cmd.Env = reaperBaseEnv()
	cmd.Env = append(cmd.Env, reaperEnv+"=1", reaperTokenEnv+"="+token,
		reaperGraceEnv+"="+strconv.FormatInt(grace.Milliseconds(), 10))
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // terminal signals do not reach it
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil
	}
	go func() { _ = cmd.Wait() }()
	return &reaperHandle{w: w}
}

// reaperBaseEnv is the tool's environment without run markers or reaper settings.
func reaperBaseEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k != runMarkerEnv && !strings.HasPrefix(k, reaperEnvPrefix) {
			out = append(out, kv)
		}
	}
	return out
}

func (h *reaperHandle) setPgid(pgid int) {
	if h != nil {
		fmt.Fprintf(h.w, "pgid %d\n", pgid)
	}
}

// close tells the reaper the tool is done with the run.
func (h *reaperHandle) close() {
	if h != nil {
		h.w.Close()
	}
}

// reaperMain waits for EOF on in, then ends what is left of the run.
func reaperMain(in io.Reader, token string, grace time.Duration) int {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	if token == "" {
		return 2
	}
	if grace <= 0 {
		grace = DefaultGrace
	}
	g := procGroup{token: token, dir: ".", anyFd: true} // the reaper runs in the run directory
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "pgid "); ok {
			g.pgid, _ = strconv.Atoi(v)
		}
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		if g.signal(sig) == 0 {
			return 0
		}
		for deadline := time.Now().Add(grace); time.Now().Before(deadline); time.Sleep(goneCheckInterval) {
			if !g.alive() {
				return 0
			}
		}
	}
	for i := 0; i < 100 && g.signal(syscall.SIGKILL) > 0; i++ {
		time.Sleep(goneCheckInterval)
	}
	return 0
}
