package runs

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// State is where a run is in its life.
type State string

// Run states as written in meta.json.
const (
	StateRunning       State = "running"
	StateStalled       State = "stalled"
	StateExited        State = "exited"
	StateKilled        State = "killed"
	StateTimedOut      State = "timed_out"
	StateFailedToStart State = "failed_to_start"
	StateCorrupt       State = "corrupt"     // meta.json unreadable (List only)
	StateInterrupted   State = "interrupted" // recorded running or stalled, but its supervisor is gone (decided on load)
)

// Done reports whether the state is final.
func (s State) Done() bool {
	return s != StateRunning && s != StateStalled
}

// StallEvent is one period without output longer than the Stall setting.
type StallEvent struct {
	Since    time.Time  `json:"since"`             // last output before the stall
	Detected time.Time  `json:"detected"`          // when the watchdog fired
	Resumed  *time.Time `json:"resumed,omitempty"` // the program's own output again; nil if it never resumed
	// Ended is the run's end when it ended while stalled (stopped while stalled, or gone without another line):
	// output the tool provoked (a stack dump it asked for, the reaction to its SIGINT) never resumes a stall.
	Ended *time.Time `json:"ended,omitempty"`
	// Compiling is what the probe said was compiling when the stall was detected ("rank 3 compiling `forward`
	// for 2m10s"); "" when nothing was: then the run may be hung.
	Compiling string `json:"compiling,omitempty"`
}

// Meta is the record of one run, stored as meta.json in its directory.
type Meta struct {
	ID          int               `json:"id"`
	Name        string            `json:"name"` // directory name, e.g. "0007-breaks"
	Dir         string            `json:"-"`    // absolute run directory (filled when loaded)
	Argv        []string          `json:"argv"` // exactly what was executed (secret flag values redacted)
	UserArgv    []string          `json:"user_argv"`
	Shell       bool              `json:"shell,omitempty"`
	Nproc       int               `json:"nproc,omitempty"`
	Launcher    string            `json:"launcher,omitempty"`
	Cwd         string            `json:"cwd"`
	Preset      string            `json:"preset"`
	TorchLogs   string            `json:"torch_logs"`
	DroppedLogs []string          `json:"dropped_logs,omitempty"`
	Env         map[string]string `json:"env"` // additions to the inherited environment, secrets redacted
	Start       time.Time         `json:"start"`
	End         *time.Time        `json:"end,omitempty"`
	DurationS   float64           `json:"duration_s"`
	ExitCode    *int              `json:"exit_code,omitempty"`
	Signal      string            `json:"signal,omitempty"`
	State       State             `json:"state"`
	// StopReason is set when the tool itself stopped the run ("cancelled", "timed out after 10m0s",
	// "relaunched with preset deep"): its interrupts and signals are the tool's, not the program's failure.
	StopReason     string       `json:"stop_reason,omitempty"`
	Pid            int          `json:"pid,omitempty"`
	Supervisor     *Supervisor  `json:"supervisor,omitempty"` // the tool that runs it
	TorchVersion   string       `json:"torch_version,omitempty"`
	Demo           string       `json:"demo,omitempty"` // the scenario of a `torchtriage demo` run: not the user's repro
	Timeout        float64      `json:"timeout_s,omitempty"`
	Stalls         []StallEvent `json:"stalls,omitempty"`
	Leftovers      int          `json:"leftover_processes,omitempty"` // still running when the main process exited; terminated
	RelaunchedFrom string       `json:"relaunched_from,omitempty"`
	RelaunchedAs   string       `json:"relaunched_as,omitempty"`
	RelaunchNote   string       `json:"relaunch_note,omitempty"`
	Error          string       `json:"error,omitempty"`
	DiskFull       string       `json:"disk_full,omitempty"` // the disk filled up: ENOSPC and the first path it hit
	Note           string       `json:"note,omitempty"`
	// Secrets holds keyed prints of the secrets the run was given, for a bundle to find them in its logs (never
	// the values; a bundle leaves them out)
	Secrets *SecretPrints `json:"secrets,omitempty"`
	Metric  *float64      `json:"metric,omitempty"` // --metric: the median of its matches after warm-up
	// MetricMatches and MetricWarmup: how many lines --metric matched, and how many of the first were warm-up
	// (MetricOfFile); 0 in runs stored before they were kept.
	MetricMatches int `json:"metric_matches,omitempty"`
	MetricWarmup  int `json:"metric_warmup,omitempty"`
	// Code is what the run kept of the code it ran (code/: the command's scripts, the user modules it imported),
	// each file with its size and sha256; nil in a run made before runs kept their code.
	Code *Code `json:"code,omitempty"`
	// Experiment groups the runs of one experiment (the ladder's tiers): log, diff and the TUI show them as one.
	Experiment *Experiment `json:"experiment,omitempty"`
}

// Experiment is what a run is a step of: one experiment's runs share its ID.
type Experiment struct {
	ID   string `json:"id"`   // shared by the experiment's runs: "ladder-20261207-210405"
	Kind string `json:"kind"` // "ladder"
	Step string `json:"step"` // this run's step: the ladder's backend ("aot_eager")
}

// Duration is the wall time of the run (zero while it runs).
func (m Meta) Duration() time.Duration {
	return time.Duration(m.DurationS * float64(time.Second))
}

// Redacted is the value written instead of a secret.
const Redacted = "<redacted>"

var secretNameRE = regexp.MustCompile(`(?i)token|key|secret|passw|credential|(?:^|[_\-])pwd?$`)

// IsSecretName reports whether an environment variable or flag name looks like
// it holds a secret (TOKEN, KEY, SECRET, PASSWORD, PASSWD, CREDENTIAL anywhere, PW or PWD as its last word:
// MYSVC_PW, --db-pwd; any case). The shell's PWD, a directory, is none.
func IsSecretName(name string) bool { return name != "PWD" && secretNameRE.MatchString(name) }

// RedactEnv turns "K=V" additions into a map with secret values replaced (Meta.Env).
func RedactEnv(env []string) map[string]string {
	out := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if IsSecretName(k) {
			v = Redacted
		}
		out[k] = v
	}
	return out
}

// RedactArgv hides the values of secret-looking flags: --hf-token=X and
// --api-key X (Meta.Argv, Meta.UserArgv).
func RedactArgv(argv []string) []string {
	out := make([]string, len(argv))
	copy(out, argv)
	for i, a := range out {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, hasValue := strings.Cut(a, "=")
		if !IsSecretName(name) {
			continue
		}
		if hasValue {
			out[i] = name + "=" + Redacted
		} else if i+1 < len(out) && !strings.HasPrefix(out[i+1], "-") {
			out[i+1] = Redacted
		}
	}
	return out
}

const metaFile = "meta.json"

// WriteMeta writes dir/meta.json atomically (temp file + rename).
func WriteMeta(dir string, m Meta) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encode meta: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".meta-*.tmp")
	if err != nil {
		return fmt.Errorf("write meta: %w", err)
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write meta: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, metaFile)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write meta: %w", err)
	}
	return nil
}

// LoadRun reads the meta.json of a run directory; a run recorded live whose supervisor is gone reads as
// StateInterrupted, and its meta.json is rewritten so (atomically; best effort: a read-only run dir stays as it
// is) when the supervisor it records is known dead: a SIGKILL or a full disk left "running" behind.
func LoadRun(dir string) (Meta, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Meta{}, err
	}
	data, err := os.ReadFile(filepath.Join(abs, metaFile))
	if err != nil {
		return Meta{}, fmt.Errorf("read run %s: %w", dir, err)
	}
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		return Meta{}, fmt.Errorf("read run %s: meta.json is not valid: %w", dir, err)
	}
	m.Dir = abs
	if m.settle() && m.Supervisor != nil {
		_ = WriteMeta(abs, m) // the state alone changes; no one else writes it: its supervisor is dead
	}
	return m, nil
}

// UpdateMeta loads a run's meta, lets fn change it (e.g. Note, Metric) and
// writes it back atomically. Do not use it on a run that is still live.
func UpdateMeta(dir string, fn func(*Meta)) error {
	m, err := LoadRun(dir)
	if err != nil {
		return err
	}
	fn(&m)
	return WriteMeta(m.Dir, m)
}

// Completed reports whether the repro ran to completion: it exited with status 0.
func (m Meta) Completed() bool {
	return m.State == StateExited && m.ExitCode != nil && *m.ExitCode == 0
}

// exitSummary is a short human description of how a run ended.
func exitSummary(m Meta) string {
	switch {
	case m.State == StateFailedToStart:
		return "failed to start: " + m.Error
	case m.Signal != "":
		return fmt.Sprintf("%s (%s)", m.State, m.Signal)
	case m.ExitCode != nil:
		return fmt.Sprintf("%s (exit %d)", m.State, *m.ExitCode)
	}
	return string(m.State)
}
