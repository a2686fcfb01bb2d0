package ladder

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// Minifier is what PyTorch's minifier did on the first bad tier.
type Minifier struct {
	Run      string `json:"run,omitempty"`      // the launcher's stored run
	Launcher string `json:"launcher,omitempty"` // the minifier_launcher.py torch wrote
	Repro    string `json:"repro,omitempty"`    // the minified repro.py, kept in the failing tier's run (minified/repro.py)
	From     int    `json:"from_nodes,omitempty"`
	To       int    `json:"to_nodes,omitempty"`
	Queries  int    `json:"queries,omitempty"`
	// Reproduces is how the minified repro.py ended when run once: the tier result it shows ("compile_error",
	// "wrong", …), "ok" when it no longer fails; "" when it was not run.
	Reproduces Result `json:"reproduces,omitempty"`
	ReproRun   string `json:"repro_run,omitempty"`
	Why        string `json:"why"` // what it did or why it could not, in words true for it
}

// Bisector is the compiler bisector's verdict on the repro.
type Bisector struct {
	Run     string     `json:"run,omitempty"`
	Method  string     `json:"method,omitempty"` // "run" (python -m torch._inductor.compiler_bisector run CMD, 2.14) or "api" (do_bisect, 2.6)
	Verdict *Bisection `json:"verdict,omitempty"`
	Why     string     `json:"why"`
}

func minifiable(r Result) bool {
	return r == CompileError || r == RuntimeError || r == Wrong || r == Failed
}

func bisectable(r Result) bool {
	return r == CompileError || r == RuntimeError || r == Wrong || r == Failed
}

func (o Options) toolTimeout() time.Duration {
	if o.ToolTimeout > 0 {
		return o.ToolTimeout
	}
	return 20 * time.Minute
}

// python is the interpreter the user's command runs (its first word when that is a python), else python3.
func python(argv []string) string {
	if len(argv) > 0 && runs.IsPython(argv[0]) {
		return argv[0]
	}
	return "python3"
}

// toolSpec is a stored run of one of PyTorch's tools (not the user's repro): no probe, no TORCH_LOGS of a preset.
func toolSpec(o Options, experiment, step string, argv []string, dir string) runs.Spec {
	spec := runs.Spec{Argv: argv, Dir: dir, Preset: o.Spec.Preset, Logs: []string{}, Env: map[string]string{},
		TorchVersion: o.Spec.TorchVersion, Timeout: o.toolTimeout(), Stall: -1,
		Experiment: &runs.Experiment{ID: experiment, Kind: "ladder", Step: step}}
	for k, v := range o.Spec.Env {
		spec.Env[k] = v
	}
	return spec
}

// minify runs PyTorch's minifier on the failing tier: the launcher torch wrote when the tier ran with the check,
// or one a rerun with TORCHDYNAMO_REPRO_AFTER writes (after aot for inductor, after dynamo for the other
// backends; level 4 for a wrong result, 2 for a crash), run as torch says (python3 minifier_launcher.py) in a
// folder of the run's own, with a `python` on PATH (2.6's launcher starts `python`).
func minify(o Options, experiment string, bad *Tier) (*Minifier, error) {
	m := &Minifier{}
	if o.Spec.Nproc > 0 {
		m.Why = "not run: the minifier takes one process, this repro runs several"
		return m, nil
	}
	launcher := ""
	if bad.Tools != nil {
		launcher = bad.Tools.Launcher
	}
	if launcher == "" || !exists(launcher) {
		after, level := "aot", "2"
		if bad.Backend != "inductor" {
			after = "dynamo" // after aot wraps Inductor's compiler only
		}
		if bad.Result == Wrong || bad.Result == Failed {
			if bad.Backend != "inductor" {
				m.Why = "not run: PyTorch minifies a wrong result for inductor only (\"Accuracy minification is supported for inductor only\")"
				return m, nil
			}
			level = "4"
		}
		o.say("minifier: rerunning %s with TORCHDYNAMO_REPRO_AFTER=%s TORCHDYNAMO_REPRO_LEVEL=%s", bad.Backend, after, level)
		spec := tierSpec(o, experiment, bad.Backend)
		spec.Env["TORCHDYNAMO_REPRO_AFTER"], spec.Env["TORCHDYNAMO_REPRO_LEVEL"] = after, level
		spec.Env["TORCHINDUCTOR_FORCE_DISABLE_CACHES"] = "1" // a graph from the cache is not compiled: nothing to dump
		spec.Experiment.Step = bad.Backend + "+repro"
		spec.Prepare = func(runDir string) ([]string, error) {
			return []string{"TORCH_COMPILE_DEBUG_DIR=" + filepath.Join(runDir, "debug")}, nil
		}
		guard := guardRepro(spec.Dir)
		dir, _, err := session.RunToEnd(o.Store, spec, true, nil)
		guard.restore(dir)
		if err != nil {
			return nil, err
		}
		launcher = scanRun(dir).Launcher
		if launcher == "" {
			m.Why = "not run: torch wrote no minifier launcher in the rerun with TORCHDYNAMO_REPRO_AFTER=" + after + " (" + dir + ")"
			return m, nil
		}
	}
	m.Launcher = launcher
	work := filepath.Join(bad.Run, runs.MinifiedDir)
	bin := filepath.Join(work, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return nil, err
	}
	py := python(o.Spec.Argv)
	if p, err := exec.LookPath(py); err == nil { // 2.6's isolated minifier starts every query as ["python", file]
		_ = os.Symlink(p, filepath.Join(bin, "python"))
	}
	spec := toolSpec(o, experiment, "minifier", []string{py, launcher}, work)
	spec.Env["PATH"] = bin + string(os.PathListSeparator) + os.Getenv("PATH")
	o.say("minifier: %s %s (up to %s)", py, launcher, o.toolTimeout())
	dir, meta, err := session.RunToEnd(o.Store, spec, false, nil)
	if err != nil {
		return nil, err
	}
	m.Run = dir
	t := scanRun(dir)
	repro := filepath.Join(work, "repro.py")
	switch {
	case t.Minify != nil && t.Minify.Wrote && exists(repro):
		m.From, m.To, m.Queries, m.Repro = t.Minify.From, t.Minify.To, t.Minify.Queries, repro
		m.Why = fmt.Sprintf("minified from %d to %d nodes in %d queries (%s/repro.py of the run)", m.From, m.To, m.Queries, runs.MinifiedDir)
	case meta.StopReason != "":
		m.Why = "did not finish: torchtriage stopped it (" + meta.StopReason + ")"
	default:
		m.Why = "the launcher wrote no minimal repro (" + report.ExitWords(session.RunFactsOf(meta)) + "; see " + filepath.Join(dir, "combined.log") + ")"
	}
	if m.Repro == "" {
		return m, writeVerdict(bad.Run, m, nil)
	}
	o.say("minifier: running the minified repro once")
	rspec := toolSpec(o, experiment, "minified-repro", []string{py, repro}, work)
	rdir, rmeta, err := session.RunToEnd(o.Store, rspec, false, nil)
	if err != nil {
		return nil, err
	}
	a, err := analyze(rdir, rmeta, o.Playbooks)
	if err != nil {
		return nil, err
	}
	rt := classify(a)
	if rt.Result == NotCompiled { // repro.py calls Inductor directly: no Dynamo frame compiles
		rt.Result = OK
	}
	m.Reproduces, m.ReproRun = rt.Result, rdir
	if rt.Result == bad.Result || (bad.Result == Failed && rt.Result != OK) {
		m.Why += "; it reproduces the failure (" + rt.Why + ")"
	} else {
		m.Why += "; run alone it ends " + string(rt.Result)
		if rt.Why != "" {
			m.Why += " (" + rt.Why + ")"
		}
		m.Why += ", not as the tier did"
	}
	return m, writeVerdict(bad.Run, m, nil)
}

//go:embed bisect_api.py
var bisectAPI []byte

// bisect runs torch._inductor.compiler_bisector on the user's command with a cache directory of its own (its
// `run` deletes the whole TORCHINDUCTOR_CACHE_DIR): `run CMD` where torch has it (2.14), else the Python API
// (do_bisect, 2.6) over the same command. The bisector judges by the exit status: a failure the command does not
// exit non-zero on is not found.
func bisect(o Options, experiment string, bad *Tier) (*Bisector, error) {
	b := &Bisector{}
	if o.Spec.Nproc > 0 || o.Spec.Launcher != "" {
		b.Why = "not run: the bisector reruns one process, this repro runs several"
		return b, nil
	}
	argv := o.Spec.Argv
	if o.Spec.Shell {
		argv = []string{"sh", "-c", strings.Join(o.Spec.Argv, " ")}
	}
	py := python(o.Spec.Argv)
	cache := filepath.Join(bad.Run, "bisect-cache")
	run := func(method string, args []string) (string, *Tools, error) {
		spec := toolSpec(o, experiment, "bisector", args, o.Spec.Dir)
		spec.Env["TORCHINDUCTOR_CACHE_DIR"] = cache
		delete(spec.Env, "TORCHDYNAMO_REPRO_AFTER")
		delete(spec.Env, "TORCHDYNAMO_REPRO_LEVEL")
		o.say("bisector (%s): %s (up to %s)", method, strings.Join(args, " "), o.toolTimeout())
		dir, _, err := session.RunToEnd(o.Store, spec, false, nil)
		if err != nil {
			return "", nil, err
		}
		return dir, scanRun(dir), nil
	}
	dir, t, err := run("run", append([]string{py, "-m", "torch._inductor.compiler_bisector", "run"}, argv...))
	if err != nil {
		return nil, err
	}
	b.Run, b.Method = dir, "run"
	if t.Bisect == nil && invalidCommand(dir) { // 2.6: no `run`; the API with the same command
		script := filepath.Join(bad.Run, "bisect_api.py")
		if err := os.WriteFile(script, bisectAPI, 0o644); err != nil {
			return nil, err
		}
		dir, t, err = run("api", append([]string{py, script}, argv...))
		if err != nil {
			return nil, err
		}
		b.Run, b.Method = dir, "api"
	}
	b.Verdict = t.Bisect
	b.Why = BisectWords(t.Bisect)
	return b, writeVerdict(bad.Run, nil, b)
}

// invalidCommand: 2.6's bisector has no `run` ("Invalid command. Must be 'good', 'bad', 'start', or 'end'.").
func invalidCommand(dir string) bool {
	data, _ := os.ReadFile(filepath.Join(dir, "combined.log"))
	return bytes.Contains(data, []byte("Invalid command. Must be"))
}

// BisectWords says what the bisector found, in words true for its verdict.
func BisectWords(b *Bisection) string {
	switch {
	case b == nil:
		return "the bisector printed no verdict (see its run's log)"
	case !b.Found && b.System != "":
		return "the bisector found the issue in the " + b.System + " backend, but no subsystem"
	case !b.Found:
		return "the bisector found no issue: every backend passed when it reran the command (its exit status decides)"
	}
	s := "the bisector blames the " + b.Backend + " backend"
	if b.Subsystem != "" {
		s += ", subsystem `" + b.Subsystem + "`"
		if b.Number >= 0 {
			s += fmt.Sprintf(" at number %d", b.Number)
		}
		if b.DebugInfo != "" {
			s += ": " + b.DebugInfo
		}
	}
	return s
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// writeVerdict adds the minifier's or the bisector's result to the failing run's minified/verdict.json, for
// bundle's README.
func writeVerdict(runDir string, m *Minifier, b *Bisector) error {
	v, _ := runs.ReadMinified(runDir)
	if m != nil {
		v.Minifier = m.Why
		if m.Repro != "" {
			v.Repro = "repro.py"
		}
	}
	if b != nil {
		v.Bisector = b.Why
	}
	return runs.WriteMinified(runDir, v)
}

// reproGuard keeps the user's <cwd>/repro.py: PyTorch's minifier copies its checkpoint there ("Copying repro
// file for convenience to <cwd>/repro.py"); torch's copy goes to the run, the user's file is put back.
type reproGuard struct {
	path string
	old  []byte
	had  bool
}

func guardRepro(dir string) reproGuard {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	g := reproGuard{path: filepath.Join(dir, "repro.py")}
	g.old, g.had = readFile(g.path)
	return g
}

func (g reproGuard) restore(runDir string) {
	now, has := readFile(g.path)
	if !has || (g.had && bytes.Equal(now, g.old)) {
		return
	}
	if runDir != "" {
		_ = os.WriteFile(filepath.Join(runDir, "torch-repro.py"), now, 0o644)
	}
	if g.had {
		_ = os.WriteFile(g.path, g.old, 0o644)
	} else {
		_ = os.Remove(g.path)
	}
}

func readFile(p string) ([]byte, bool) {
	data, err := os.ReadFile(p)
	return data, err == nil
}
