package runs

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/triage/probe"
)

// Spec describes one launch of the user's repro.
type Spec struct {
	Argv         []string          // the user's command, run exactly (no shell)
	Shell        bool              // run Argv joined by spaces under `sh -c`
	Nproc        int               // >0: wrap with torchrun --nproc-per-node N --tee 3 (python3 -m torch.distributed.run when torchrun is not on PATH)
	Launcher     string            // "" | "torchrun" | "srun" (srun --label -n N ARGV...)
	MasterPort   int               // torchrun --master-port; 0 = Start picks a free port
	Dir          string            // working dir (default cwd)
	Preset       string            // preset name (default "breaks")
	Logs         []string          // custom TORCH_LOGS names (override the preset's); nil = preset's
	Env          map[string]string // extra env
	TorchVersion string            // "2.14" etc. when known: unknown log names are dropped
	Demo         string            // the scenario a `torchtriage demo` run replays ("" for the user's repro); kept in Meta
	Experiment   *Experiment       // the experiment the run is a step of (a ladder's tier); kept in Meta; nil for none
	Timeout      time.Duration     // 0 = none
	Stall        time.Duration     // no-output watchdog; 0 = 300s, <0 = off
	Grace        time.Duration     // between SIGINT, SIGTERM and SIGKILL; 0 = 5s
	RunDir       string            // filled by Start; Command uses it for TORCH_TRACE
	// WarmupSteps and StepMarker are the steady state the run is judged by (--warmup-steps, --step-marker): put in
	// its environment for the probe (the marker) and kept there, in meta.json, so a stored run is judged the same
	WarmupSteps *int
	StepMarker  string
	// CollectiveTimeout (--collective-timeout), >0: the probe sets torch.distributed.init_process_group's timeout
	// to it, so a collective that hangs fails with torch's timeout error; needs the probe
	CollectiveTimeout time.Duration

	Prepare      func(runDir string) (env []string, err error) // hook run before launch (the probe installs itself); may be nil
	StackTargets func(runDir string) []int                     // pids that registered a SIGUSR1 stack dumper; may be nil
	// Compiling says which processes are compiling at now ("rank 3 compiling `forward` for 2m10s"), "" when
	// none is: a stall while compiling is reported as compiling, not as a hang. May be nil.
	Compiling func(runDir string, now time.Time) string
	// ImportedCode lists the user module files (absolute paths) the run's processes imported, as the probe
	// recorded them; read when the run ends, to keep them in its code/. May be nil (no probe).
	ImportedCode func(runDir string) []string
	// RecordedLogs, for a replay (demo), is the TORCH_LOGS its recording was made with, given the environment
	// the launch composed (ok false: the composed value stands). The run is given and states that value, not
	// the preset's: a recording made without graph_breaks never reads as a run that logged them. May be nil.
	RecordedLogs func(env []string) (torchLogs string, ok bool)
}

// torchrunLookPath finds torchrun; a variable so the choice stays testable
// through PATH alone.
var torchrunLookPath = exec.LookPath

var pythonRE = regexp.MustCompile(`^python(\d+(\.\d+)?)?$`)

// IsPython says whether a command word names a Python interpreter (python, python3, python3.14, by path or not).
func IsPython(arg string) bool { return pythonRE.MatchString(filepath.Base(arg)) }

// resolvePreset returns the spec's preset, the custom logs when set, and the
// label used in the run directory name.
func (s Spec) resolvePreset() (Preset, string, error) {
	p, ok := PresetByName(s.Preset)
	if !ok {
		return Preset{}, "", fmt.Errorf("unknown preset %q (known: %s)", s.Preset, strings.Join(PresetNames(), ", "))
	}
	label := p.Name
	if s.Logs != nil && !SameLogs(s.Logs, p.Logs) { // the preset's own names in another order are the preset
		p.Logs = s.Logs
		label = "custom"
	}
	return p, label, nil
}

// Label is the label of the spec's run directory (<seq>-<label>): its preset's name, "custom" for names of its own.
func (s Spec) Label() string {
	_, label, _ := s.resolvePreset()
	return label
}

// SameLogs reports whether two lists of TORCH_LOGS names name the same set (order and repeats aside: TORCH_LOGS
// means the same in any order).
func SameLogs(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// Command builds the exact argv and the environment additions ("K=V", later
// entries win) for spec. It has no side effects beyond looking up torchrun on
// PATH.
func Command(spec Spec) (argv []string, env []string, err error) {
	argv, _, env, err = CommandWithout(spec, nil)
	return argv, env, err
}

// CommandWithout is Command leaving out the TORCH_LOGS names exclude (names a previous run proved torch rejects),
// plus the names dropped for the torch version.
func CommandWithout(spec Spec, exclude []string) (argv []string, dropped []string, env []string, err error) {
	if len(spec.Argv) == 0 || strings.TrimSpace(spec.Argv[0]) == "" {
		return nil, nil, nil, errors.New("no command to run: give the repro's command line")
	}
	if spec.Nproc < 0 {
		return nil, nil, nil, fmt.Errorf("nproc must be >= 0, got %d", spec.Nproc)
	}
	p, _, err := spec.resolvePreset()
	if err != nil {
		return nil, nil, nil, err
	}
	user := slices.Clone(spec.Argv)
	if spec.Shell {
		user = []string{"sh", "-c", strings.Join(spec.Argv, " ")}
	}
	switch spec.Launcher {
	case "srun":
		argv = append([]string{"srun", "--label", "-n", strconv.Itoa(max(spec.Nproc, 1))}, user...)
	case "torchrun":
		argv = torchrunArgv(user, max(spec.Nproc, 1), spec.MasterPort)
	case "":
		if spec.Nproc > 0 {
			argv = torchrunArgv(user, spec.Nproc, spec.MasterPort)
		} else {
			argv = user
		}
	default:
		return nil, nil, nil, fmt.Errorf("unknown launcher %q (use torchrun or srun)", spec.Launcher)
	}

	logs, dropped := composeTorchLogs(p.Logs, spec.TorchVersion, exclude)
	env = []string{"PYTHONUNBUFFERED=1"}
	if logs != "" {
		env = append(env, "TORCH_LOGS="+logs)
	}
	if p.Trace {
		dir := "trace"
		if spec.RunDir != "" {
			dir = filepath.Join(spec.RunDir, "trace")
		}
		env = append(env, "TORCH_TRACE="+dir)
	}
	env = append(env, sortedEnv(p.Env)...)
	steady, err := spec.steadyEnv()
	if err != nil {
		return nil, nil, nil, err
	}
	env = append(env, steady...)
	env = append(env, sortedEnv(spec.Env)...)
	return argv, dropped, DedupeEnv(env), nil
}

// OptionalSteps is a --warmup-steps value as Spec.WarmupSteps holds it: nil for a negative one (the flag not given).
func OptionalSteps(k int) *int {
	if k < 0 {
		return nil
	}
	return &k
}

// Checked is s, or the error its launch would meet in what the flags gave (a step marker Go's regexp cannot read or
// with more than one group, a negative warm-up): a usage error before the run, not a run that does not start.
func (s Spec) Checked() (Spec, error) {
	_, err := s.steadyEnv()
	return s, err
}

// steadyEnv is the environment of the spec's steady state: the step marker (which must compile) and the warm-up.
func (s Spec) steadyEnv() ([]string, error) {
	var env []string
	if s.StepMarker != "" {
		re, err := regexp.Compile(s.StepMarker)
		if err != nil {
			return nil, fmt.Errorf("--step-marker: %v", err)
		}
		if re.NumSubexp() > 1 {
			return nil, fmt.Errorf("--step-marker: %q has %d groups: give at most one, the step number", s.StepMarker, re.NumSubexp())
		}
		env = append(env, probe.StepMarkerEnv+"="+s.StepMarker)
	}
	if s.WarmupSteps != nil {
		if *s.WarmupSteps < 0 {
			return nil, fmt.Errorf("--warmup-steps must be 0 or more, got %d", *s.WarmupSteps)
		}
		env = append(env, probe.WarmupStepsEnv+"="+strconv.Itoa(*s.WarmupSteps))
	}
	return env, nil
}

// torchrunArgv wraps the user's command for torchrun. A python interpreter in
// front of a script or -m module is replaced by torchrun's own; an interpreter
// given by path keeps its environment by running its torch.distributed.run;
// anything else runs under --no-python.
func torchrunArgv(user []string, n, port int) []string {
	var launcher []string
	py := "python3"
	if IsPython(user[0]) {
		py = user[0]
	}
	if _, err := torchrunLookPath("torchrun"); err == nil && !(IsPython(user[0]) && strings.Contains(user[0], "/")) {
		launcher = []string{"torchrun"}
	} else {
		launcher = []string{py, "-m", "torch.distributed.run"}
	}
	opts := []string{"--nproc-per-node", strconv.Itoa(n), "--tee", "3"}
	if port > 0 {
		opts = append(opts, "--master-port", strconv.Itoa(port))
	}
	var prog []string
	switch {
	case IsPython(user[0]) && len(user) > 1 && (user[1] == "-m" || !strings.HasPrefix(user[1], "-")):
		prog = user[1:]
	case strings.HasSuffix(user[0], ".py"):
		prog = user
	default:
		prog = append([]string{"--no-python"}, user...)
	}
	return append(append(launcher, opts...), prog...)
}

func sortedEnv(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+m[k])
	}
	return out
}

// DedupeEnv keeps one entry per name: the last value, at the first position.
func DedupeEnv(env []string) []string {
	var out []string
	at := map[string]int{}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if i, ok := at[k]; ok {
			out[i] = kv
			continue
		}
		at[k] = len(out)
		out = append(out, kv)
	}
	return out
}

// UsesTorchrun reports whether the command is wrapped by torchrun.
func (s Spec) UsesTorchrun() bool {
	return s.Launcher == "torchrun" || (s.Launcher == "" && s.Nproc > 0)
}
