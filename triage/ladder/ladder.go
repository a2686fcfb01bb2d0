package ladder

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// Backends are the ladder's tiers, each doing more of torch.compile's work than the one before.
var Backends = []string{"eager", "aot_eager", "aot_eager_decomp_partition", "inductor"}

// Result is how one tier ended.
type Result string

// Tier results.
const (
	OK           Result = "ok"            // ran to its end (exit 0) and compiled
	CompileError Result = "compile_error" // a process died of a compile error
	RuntimeError Result = "runtime_error" // a process died of another uncaught exception
	Wrong        Result = "wrong"         // PyTorch's accuracy check found the compiled result wrong (AccuracyError)
	Hang         Result = "hang"          // it hung, or did not end before the timeout (torchtriage stopped it)
	Failed       Result = "failed"        // it exited non-zero with no error torch printed (the program's own check, or exit)
	NotCompiled  Result = "not_compiled"  // it ran but compiled nothing: the tier proves nothing
	DidNotStart  Result = "did_not_start" // the command could not be launched
	NotRun       Result = "not_run"       // not run: a tier before it failed
	Stopped      Result = "stopped"       // the user stopped the ladder during this tier (Options.Context): not judged
)

// ErrStopped is Run's error when Options.Context was cancelled: the user stopped the ladder, the program did
// nothing wrong; the ladder returned holds the tiers run so far and the stopped one. Cancelled with it as the
// cause (context.WithCancelCause), the stopped tier's meta.json keeps its words as the stop reason.
var ErrStopped = errors.New("the ladder was stopped by the user")

// Tier is one backend's run.
type Tier struct {
	Backend string `json:"backend"`
	Result  Result `json:"result"`
	Run     string `json:"run"` // the run directory; "" when not run
	// AccuracyChecked: PyTorch's accuracy check judged this tier's graphs (inductor with --check-accuracy; the check
	// works after AOTAutograd for Inductor only) and did not skip one.
	AccuracyChecked bool `json:"accuracy_checked"`
	// Why says what the result rests on, in words true for it ("compile error: InductorError — CppCompileError: …").
	Why string `json:"why,omitempty"`
	// Playbook of the finding the result rests on; "" when none.
	Playbook string `json:"playbook,omitempty"`
	// Tools is what the run showed of PyTorch's accuracy check and minifier (the launcher it wrote, the RMSE).
	Tools *Tools `json:"-"`
}

// Ladder is the whole experiment.
type Ladder struct {
	Experiment      string  `json:"experiment"`
	Tiers           []Tier  `json:"tiers"`
	FirstBad        *string `json:"first_bad"`
	AccuracyChecked bool    `json:"accuracy_checked"`
	// Summary names the first bad tier and what it points at, or says every tier passed.
	Summary  string    `json:"summary"`
	Minifier *Minifier `json:"minifier,omitempty"`
	Bisector *Bisector `json:"bisector,omitempty"`
}

// Options is one ladder: the user's command as a spec, where runs go, and what to run on a failing tier.
type Options struct {
	StoreDir      string // the run store (runs.OpenStore: "" is .torchtriage/runs); Store, when set, is used instead
	Store         *runs.Store
	Spec          runs.Spec // the user's repro (Argv, Dir, Preset, Env, Timeout per tier…)
	Playbooks     *playbooks.Set
	CheckAccuracy bool // TORCHDYNAMO_REPRO_AFTER=aot TORCHDYNAMO_REPRO_LEVEL=4 on every tier
	// Mismatch is a regular expression for the line the program prints when its own comparison with eager fails
	// ("MISMATCH"): a tier whose output has one is wrong (the program's word for it), on every backend; "": not used.
	Mismatch    string
	mismatch    *regexp.Regexp
	Minify      bool          // run the minifier on the first bad tier
	Bisect      bool          // run the compiler bisector on the first bad tier
	ToolTimeout time.Duration // the minifier's and the bisector's limit; 0 = 20 minutes
	Progress    func(string)  // hears each step as it starts and ends ("tier 2/4 aot_eager: ok"; may be nil)
	Format      string        // how Write writes it: "json", else text
	// Context, when cancelled, stops the running tier's process tree and the ladder (Run returns ErrStopped);
	// nil: never. With a Context the caller handles the signals (the TUI); without, SIGINT/SIGTERM/SIGHUP stop
	// the tier's processes (session.RunToEnd).
	Context context.Context
	Now     func() time.Time
}

func (o Options) say(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// Run climbs the ladder: one stored run per tier, in order, until a tier fails; the tiers after it are not run.
func Run(o Options) (*Ladder, error) {
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	if o.Mismatch != "" {
		re, err := regexp.Compile(o.Mismatch)
		if err != nil {
			return nil, fmt.Errorf("--mismatch: %w", err)
		}
		o.mismatch = re
	}
	if o.Store == nil {
		store, err := runs.OpenStore(o.StoreDir)
		if err != nil {
			return nil, err
		}
		o.Store = store
	}
	l := &Ladder{Experiment: "ladder-" + now().UTC().Format("20060102-150405"), AccuracyChecked: o.CheckAccuracy}
	failed := false
	for i, b := range Backends {
		at := fmt.Sprintf("%d/%d %s", i+1, len(Backends), b) // "2/4 aot_eager"
		if failed {
			l.Tiers = append(l.Tiers, Tier{Backend: b, Result: NotRun})
			continue
		}
		o.say("tier %s: running", at)
		t, err := runTier(o, l.Experiment, b)
		if o.Context != nil && o.Context.Err() != nil {
			t.Backend, t.Result, t.Why, t.Playbook = b, Stopped, "stopped by the user: this tier was not judged", ""
			l.Tiers = append(l.Tiers, t)
			o.say("tier %s: stopped by the user", at)
			l.Summary = "the ladder was stopped by the user during tier " + b + ": no verdict"
			return l, ErrStopped
		}
		if err != nil {
			return l, err
		}
		o.say("tier %s: %s%s", at, t.Result, prefixed(": ", t.Why))
		l.Tiers = append(l.Tiers, t)
		if t.Result != OK {
			failed = true
			name := b
			l.FirstBad = &name
		}
	}
	l.Summary = summaryOf(l)
	if l.FirstBad != nil {
		bad := l.tier(*l.FirstBad)
		// a tool that could not run is said in its result: the ladder's verdict stands
		if o.Minify && minifiable(bad.Result) {
			m, err := minify(o, l.Experiment, bad)
			if err != nil {
				m = &Minifier{Why: "could not run: " + err.Error()}
			}
			l.Minifier = m
		}
		if o.Bisect && bisectable(bad.Result) {
			b, err := bisect(o, l.Experiment, bad)
			if err != nil {
				b = &Bisector{Why: "could not run: " + err.Error()}
			}
			l.Bisector = b
		}
	}
	return l, nil
}

func (l *Ladder) tier(backend string) *Tier {
	for i := range l.Tiers {
		if l.Tiers[i].Backend == backend {
			return &l.Tiers[i]
		}
	}
	return nil
}

// tierSpec is the user's spec with the backend forced and, with the check, PyTorch's accuracy check on.
func tierSpec(o Options, experiment, backend string) runs.Spec {
	spec := o.Spec
	spec.Env = map[string]string{}
	for k, v := range o.Spec.Env {
		spec.Env[k] = v
	}
	spec.Env[probe.BackendEnv] = backend
	if o.CheckAccuracy {
		spec.Env["TORCHDYNAMO_REPRO_AFTER"] = "aot" // after dynamo, 2.14's check skips the graph and lets a wrong result through
		spec.Env["TORCHDYNAMO_REPRO_LEVEL"] = "4"
		// a graph Inductor or AOTAutograd takes from its cache is never compiled, so never checked (a warm cache let
		// the injected wrong result through unchecked on 2.14)
		spec.Env["TORCHINDUCTOR_FORCE_DISABLE_CACHES"] = "1"
	}
	spec.Experiment = &runs.Experiment{ID: experiment, Kind: "ladder", Step: backend}
	return spec
}

func runTier(o Options, experiment, backend string) (Tier, error) {
	spec := tierSpec(o, experiment, backend)
	var debugDir string
	if o.CheckAccuracy {
		// the check writes its checkpoints, launcher and a repro.py copy: keep them in the run, not the user's folder
		spec.Prepare = chainPrepare(spec.Prepare, func(runDir string) ([]string, error) {
			debugDir = filepath.Join(runDir, "debug")
			return []string{"TORCH_COMPILE_DEBUG_DIR=" + debugDir}, nil
		})
	}
	guard := guardRepro(spec.Dir)
	run := session.RunToEnd // SIGINT/SIGTERM/SIGHUP stop the tier's processes
	if o.Context != nil {   // the caller's context stops them; its own signal handler too (the TUI's)
		run = func(store *runs.Store, spec runs.Spec, probe bool, on func(session.Note)) (string, runs.Meta, error) {
			return session.RunToEndContext(o.Context, store, spec, probe, on)
		}
	}
	dir, meta, err := run(o.Store, spec, true, nil)
	guard.restore(dir)
	if err != nil {
		return Tier{}, err
	}
	a, err := analyze(dir, meta, o.Playbooks)
	if err != nil {
		return Tier{}, err
	}
	t := classify(a)
	if o.mismatch != nil && (t.Result == OK || t.Result == Failed) {
		if line := firstMatch(filepath.Join(dir, "combined.log"), o.mismatch); line != "" {
			t.Result, t.Why = Wrong, "wrong result, by the program's own comparison: it printed "+strconv.Quote(line)
		}
	}
	t.Backend, t.Run = backend, dir
	t.Tools = scanRun(dir)
	t.AccuracyChecked = o.CheckAccuracy && backend == "inductor" && !t.Tools.AccuracySkipped && a.Evidence.NothingCompiled() == ""
	if o.CheckAccuracy && backend == "inductor" && t.Tools.AccuracySkipped && t.Result == OK {
		t.Why = "PyTorch's accuracy check skipped a graph (it ran into an exception of its own): that graph was not checked"
	}
	return t, nil
}

// analyze reads a stored run as `report` does.
func analyze(dir string, meta runs.Meta, set *playbooks.Set) (*triage.Analysis, error) {
	l, err := report.Load([]string{dir}, report.LoadOptions{})
	if err != nil {
		return nil, err
	}
	probes, _ := session.ReadProbes(dir)
	return triage.AnalyzeRun(l.Report, set, probes, session.RunFactsOf(meta)), nil
}

// classify words how a tier's run ended, from its analysis: a hang or the tool's stop first, then what a process
// died of (a wrong result before the error it raised), then a non-zero exit with nothing recognised.
func classify(a *triage.Analysis) Tier {
	first := func(kind findings.Kind) *findings.Finding {
		for i := range a.Findings {
			if f := &a.Findings[i]; f.Kind == kind && !f.Caught && !f.PeerGone {
				return f
			}
		}
		return nil
	}
	run := a.Run
	if h := a.Hung(); h != "" {
		return Tier{Result: Hang, Why: "it hung: " + h}
	}
	if run != nil && run.Outcome == report.OutcomeStopped {
		return Tier{Result: Hang, Why: "it did not end: torchtriage stopped it (" + run.StoppedBy() + "); nothing shows where it waited"}
	}
	if run != nil && run.Outcome == report.OutcomeDidNotStart {
		return Tier{Result: DidNotStart, Why: cmp.Or(run.Error, "the command could not be launched")}
	}
	if f := first(findings.KindAccuracy); f != nil {
		return Tier{Result: Wrong, Why: "wrong result: " + f.Title, Playbook: f.Playbook}
	}
	if f := first(findings.KindCompileError); f != nil {
		return Tier{Result: CompileError, Why: "compile error: " + f.Title, Playbook: f.Playbook}
	}
	if f := first(findings.KindRuntimeError); f != nil {
		return Tier{Result: RuntimeError, Why: "runtime error: " + f.Title, Playbook: f.Playbook}
	}
	if run != nil && run.Outcome == report.OutcomeFailed {
		return Tier{Result: Failed, Why: "it " + report.ExitWords(run) + " with no error torch printed: the program's own check " +
			"(a comparison it printed) or its own exit (a guess: see its output)"}
	}
	if !a.Evidence.TorchSeen {
		return Tier{Result: NotCompiled, Why: "no sign torch ran (no torch output, no probe file): the backend was never used, so this tier proves nothing"}
	}
	if nc := a.Evidence.NothingCompiled(); nc != "" {
		return Tier{Result: NotCompiled, Why: nc + ": the backend was never used, so this tier proves nothing"}
	}
	return Tier{Result: OK}
}

// firstMatch is the first line of a file re matches (cut to 200 bytes), "" when none does.
func firstMatch(path string, re *regexp.Regexp) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		if l := sc.Text(); re.MatchString(l) {
			return strings.TrimSpace(l[:min(len(l), 200)])
		}
	}
	return ""
}

// scanRun reads what the run's output shows of PyTorch's debugging tools.
func scanRun(dir string) *Tools { return scanFile(filepath.Join(dir, "combined.log")) }

func scanFile(path string) *Tools {
	t := &Tools{}
	f, err := os.Open(path)
	if err != nil {
		return t
	}
	defer f.Close()
	if got, err := ScanTools(f); err == nil {
		*t = got
	}
	return t
}

// summaryOf names the first bad tier and what it points at; every tier passing is said only when each ran.
func summaryOf(l *Ladder) string {
	if l.FirstBad == nil {
		s := "every tier passed: " + strings.Join(Backends, ", ") + " ran to their end"
		if l.AccuracyChecked {
			if t := l.tier("inductor"); t != nil && t.AccuracyChecked {
				s += "; PyTorch's accuracy check found inductor's result right (it checks inductor only)"
			} else {
				s += "; PyTorch's accuracy check judged no graph (see inductor)"
			}
		} else {
			s += " (results not checked: --check-accuracy runs PyTorch's accuracy check)"
		}
		return s
	}
	bad := l.tier(*l.FirstBad)
	var passed []string
	for _, t := range l.Tiers {
		if t.Backend == bad.Backend {
			break
		}
		passed = append(passed, t.Backend)
	}
	s := ""
	if len(passed) > 0 {
		s = playbooks.JoinAnd(passed) + verb(len(passed), " passes; ", " pass; ")
	}
	if bad.Result == NotCompiled { // no failure: the tier showed nothing, and the ladder stops there
		return s + bad.Backend + " shows nothing (not_compiled): " + bad.Why
	}
	s += bad.Backend + " fails (" + string(bad.Result) + ")"
	switch {
	case bad.Result == Hang || bad.Result == DidNotStart:
		s += ": " + bad.Why
	case bad.Backend == "eager":
		s += ": TorchDynamo's graph capture, or the program itself; check that it runs without torch.compile"
	case bad.Backend == "aot_eager":
		s += ": AOTAutograd (tracing, functionalization, the partitioner); report to PyTorch with the pack"
	case bad.Backend == "aot_eager_decomp_partition":
		s += ": Inductor's decompositions or its partitioner (no Inductor code generation yet); report to PyTorch with the pack"
	case bad.Backend == "inductor":
		s += ": Inductor's code generation (lowering, fusion, kernels, the C++/Triton compile); report to PyTorch with the pack"
	}
	return s
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

func chainPrepare(first, then func(string) ([]string, error)) func(string) ([]string, error) {
	if first == nil {
		return then
	}
	return func(dir string) ([]string, error) {
		a, err := first(dir)
		if err != nil {
			return nil, err
		}
		b, err := then(dir)
		return append(a, b...), err
	}
}
