package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// Run is one live (or finished) launch of the repro.
type Run struct {
	ID  int
	Dir string

	spec  runs.Spec
	of    relaunchOf // the run it relaunches, when it does
	store *runs.Store
	sink  func(Event)
	cmd   *exec.Cmd
	group procGroup
	tail  *tailer
	dog   *watchdog
	reap  *reaperHandle
	ctx   context.Context // set by supervise; the relaunch inherits it

	mu        sync.Mutex
	meta      runs.Meta
	cancelled bool
	stopFor   string // why the tool stopped it (Stop's reason)
	timedOut  bool
	next      *Run

	escalateOnce sync.Once
	dumpAsked    atomic.Int64  // unix ns of the latest stack dump request (DumpStacks); 0: none
	halting      atomic.Bool   // the tool began stopping the run (escalate)
	gone         chan struct{} // closed when no process of the run is left
	done         chan struct{} // closed when the run is final and recorded
}

// inheritedOverrides are variables of the tool's own environment that the
// run does not inherit: the preset decides them.
var inheritedOverrides = []string{"TORCH_LOGS", "TORCH_TRACE", "TORCHDYNAMO_DISABLE", runMarkerEnv}

// Start launches spec as a new run in store and supervises it; sink (may be
// nil) receives the run's events. The repro runs in its own process group,
// stdin /dev/null, stdout and stderr written by the kernel straight to
// stdout.log and stderr.log in the run directory. When the launch fails the
// run directory still records it (state failed_to_start) and an error is
// returned.
func Start(ctx context.Context, store *runs.Store, spec runs.Spec, sink func(Event)) (*Run, error) {
	if store == nil {
		return nil, errors.New("start: no run store")
	}
	if _, _, _, err := runs.CommandWithout(spec, nil); err != nil {
		return nil, err
	}
	id, dir, err := store.NewRun(spec.Label())
	if err != nil {
		return nil, err
	}
	r, err := launch(store, spec, relaunchOf{}, sink, id, dir)
	if err != nil {
		return nil, err
	}
	go r.supervise(ctx)
	return r, nil
}

// relaunchOf is what makes a launch the automatic relaunch of another run (relaunch.go); zero for any other.
type relaunchOf struct {
	excludeLogs []string // names a previous run proved torch rejects
	from        string   // name of the run this one replaces
	note        string
}

// launch starts the process of a run whose directory exists; the caller
// starts supervision.
func launch(store *runs.Store, spec runs.Spec, of relaunchOf, sink func(Event), id int, dir string) (*Run, error) {
	if sink == nil {
		sink = func(Event) {}
	}
	r := &Run{ID: id, Dir: dir, store: store, of: of, sink: sink, gone: make(chan struct{}), done: make(chan struct{})}
	spec.RunDir = dir
	if spec.Dir == "" {
		spec.Dir, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(spec.Dir); err == nil {
		spec.Dir = abs
	}
	if spec.UsesTorchrun() && spec.MasterPort == 0 {
		spec.MasterPort = freePort()
	}
	if spec.Preset == "" {
		spec.Preset = runs.DefaultPreset
	}
	r.spec = spec
	now := time.Now()
	r.meta = runs.Meta{
		ID: id, Name: filepath.Base(dir), Dir: dir, UserArgv: runs.RedactArgv(spec.Argv), Shell: spec.Shell,
		Nproc: spec.Nproc, Launcher: spec.Launcher, Cwd: spec.Dir, Preset: spec.Preset,
		TorchVersion: spec.TorchVersion, Demo: spec.Demo, Experiment: spec.Experiment, Start: now, State: runs.StateRunning, Timeout: spec.Timeout.Seconds(),
		Supervisor: runs.CurrentSupervisor(),
	}
	r.meta.RelaunchedFrom, r.meta.RelaunchNote = of.from, of.note
	argv, dropped, env, err := runs.CommandWithout(spec, of.excludeLogs)
	if err != nil {
		return nil, r.failed(err)
	}
	r.meta.Argv, r.meta.DroppedLogs = runs.RedactArgv(argv), dropped
	r.meta.TorchLogs = envValue(env, "TORCH_LOGS")
	// the code that runs, kept before it starts: the scripts the command names (the modules they import are kept
	// at the end, from what the probe saw)
	r.meta.Code = runs.KeepCode(dir, spec.Dir, nil, runs.CommandScripts(spec.Argv, spec.Dir), false)
	if spec.Prepare != nil {
		extra, err := spec.Prepare(dir)
		if err != nil {
			return nil, r.failed(fmt.Errorf("prepare: %w", err))
		}
		env = runs.DedupeEnv(append(env, extra...))
	}
	if spec.RecordedLogs != nil { // a replay is given, and states, what its recording had
		if logs, ok := spec.RecordedLogs(env); ok {
			env = runs.DedupeEnv(append(env, "TORCH_LOGS="+logs))
		}
	}
	r.meta.TorchLogs = envValue(env, "TORCH_LOGS")
	r.meta.Env = runs.RedactEnv(env)
	r.meta.Secrets = runs.SecretPrintsOf(argv, append(os.Environ(), env...))
	// the record goes to disk before the repro starts: a repro that fills the disk at once must not leave a run
	// without its meta.json (it used to be written only once the process had started)
	if err := runs.WriteMeta(dir, r.meta); err != nil {
		return nil, r.failed(err)
	}
	if err := r.startProcess(argv, env); err != nil {
		return nil, r.failed(err)
	}
	r.dog = newWatchdog(stallOf(spec), now)
	r.meta.Pid = r.cmd.Process.Pid
	if err := runs.WriteMeta(dir, r.meta); err != nil {
		r.reportError(err)
	}
	registerLive(r)
	return r, nil
}

// startProcess opens the output files and starts the repro (and its reaper).
func (r *Run) startProcess(argv, env []string) error {
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close() // the child holds its own copies
		}
	}()
	for _, name := range []string{"stdout.log", "stderr.log"} {
		f, err := os.OpenFile(filepath.Join(r.Dir, name), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	tail, err := openTailer(r.Dir)
	if err != nil {
		return err
	}
	token := newToken()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = r.spec.Dir
	cmd.Env = childEnv(os.Environ(), env, token)
	cmd.Stdout, cmd.Stderr = files[0], files[1]
	// a session of its own: its own process group (killed as one), and no controlling terminal, so that under the
	// TUI it can neither write onto the screen through /dev/tty nor read the keys
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	closeOnExecAll()
	becomeSubreaper()
	r.reap = startReaper(token, graceOf(r.spec), r.Dir)
	if r.reap == nil {
		setDeathSignal(cmd.SysProcAttr, syscall.SIGKILL)
	}
	if err := cmd.Start(); err != nil {
		tail.close()
		r.reap.close()
		return fmt.Errorf("start %s: %w", argv[0], err)
	}
	r.cmd, r.tail = cmd, tail
	r.group = procGroup{pgid: cmd.Process.Pid, token: token, dir: r.Dir, known: &pidSet{}}
	r.reap.setPgid(cmd.Process.Pid)
	return nil
}

// failed records a run that could not start and reports it.
func (r *Run) failed(err error) error {
	end := time.Now()
	r.meta.State, r.meta.Error, r.meta.End = runs.StateFailedToStart, err.Error(), &end
	m := r.meta
	if werr := runs.WriteMeta(r.Dir, m); werr != nil {
		err = errors.Join(err, werr)
	}
	close(r.gone)
	close(r.done)
	r.sink(Event{RunID: r.ID, Kind: EventError, Time: end, Err: err, Meta: &m})
	return fmt.Errorf("run %s failed to start: %w", m.Name, err)
}

// childEnv is the tool's environment without the variables the run decides,
// plus the additions and the run's marker.
func childEnv(base, add []string, token string) []string {
	drop := map[string]bool{}
	for _, k := range inheritedOverrides {
		drop[k] = true
	}
	for _, kv := range add {
		k, _, _ := strings.Cut(kv, "=")
		drop[k] = true
	}
	var out []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] && !strings.HasPrefix(k, reaperEnvPrefix) {
			out = append(out, kv)
		}
	}
	out = append(out, add...)
	return append(out, runMarkerEnv+"="+token)
}

func envValue(env []string, key string) string {
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == key {
			return v
		}
	}
	return ""
}

func newToken() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// freePort asks the kernel for a free TCP port for torchrun's rendezvous
// (0 when none can be had: torchrun then uses its default).
func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// State is the run's current state.
func (r *Run) State() runs.State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.meta.State
}

// Meta returns a copy of the run's current meta.
func (r *Run) Meta() runs.Meta {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.meta
}

// Wait blocks until every process of the run is gone and its output is
// drained, and returns the final meta.
func (r *Run) Wait() runs.Meta {
	<-r.done
	return r.Meta()
}

// Relaunched returns the run that replaced this one (after Wait), or nil.
func (r *Run) Relaunched() *Run {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.next
}

// WaitLast waits for this run and for the run that replaced it, if any, and
// returns the meta of the last one.
func (r *Run) WaitLast() runs.Meta {
	m := r.Wait()
	if n := r.Relaunched(); n != nil {
		return n.WaitLast()
	}
	return m
}

// Defaults for Spec's durations.
const (
	DefaultStall = 300 * time.Second
	DefaultGrace = 5 * time.Second
)

// stallOf is the no-output watchdog's limit of a spec (Spec.Stall: 0 is DefaultStall, <0 off).
func stallOf(s runs.Spec) time.Duration {
	if s.Stall == 0 {
		return DefaultStall
	}
	return s.Stall
}

// GraceOf is the pause between SIGINT, SIGTERM and SIGKILL of a spec (Spec.Grace: 0 is DefaultGrace): a stopped
// run is sent SIGINT, SIGTERM one grace later and SIGKILL two graces later, unless it ended.
func GraceOf(s runs.Spec) time.Duration { return graceOf(s) }

func graceOf(s runs.Spec) time.Duration {
	if s.Grace <= 0 {
		return DefaultGrace
	}
	return s.Grace
}
