package story

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// StorySchema names the JSON schema of `torchtriage log`.
const Schema = "torchtriage.log/v1"

// Story is the bringup log of a session: every run of one store, oldest first, with what changed and what it
// fixed or broke against the previous comparable run.
type Story struct {
	Store string `json:"store"`
	// Script narrows the log to the runs of one script (log --script): "" for every run of the store
	Script   string   `json:"script,omitempty"`
	Env      *Env     `json:"environment"` // nil when no run recorded a torch version
	Runs     []Run    `json:"runs"`
	Warnings []string `json:"warnings"` // runs whose logs or probe files could not be read
}

// StoryEnv is the environment summary of the session, taken from the newest run that knows it.
type Env struct {
	Source     string `json:"source"` // "probe of run 7" or "run 7" (meta or log only)
	Torch      string `json:"torch"`
	Python     string `json:"python,omitempty"`
	CUDA       string `json:"cuda,omitempty"`
	GPU        string `json:"gpu,omitempty"`
	Capability string `json:"capability,omitempty"`
	Driver     string `json:"driver,omitempty"`
	Host       string `json:"host,omitempty"`
	WorldSize  int    `json:"world_size,omitempty"`
}

// StoryCounts are a run's counts: distinct graph breaks, recompile records, limit hits, skips, errors, ranks seen.
type Counts struct {
	GraphBreaks    int `json:"graph_breaks"`
	Recompiles     int `json:"recompiles"`
	LimitHits      int `json:"recompile_limit_hits"`
	CudagraphSkips int `json:"cudagraph_skips"`
	CompileErrors  int `json:"compile_errors"`
	// CompileErrorsCaught: compile errors the program caught and went on after (no process died of them; the
	// report's "compile errors 0 (1 caught)")
	CompileErrorsCaught int `json:"compile_errors_caught,omitempty"`
	Ranks               int `json:"ranks"`
	// CUDA graphs' non-cudagraphable partitions and re-recordings (recordings after failed checks: triage.Counts),
	// processes that died of a runtime error
	CudagraphPartitions int `json:"cudagraph_partitions"`
	CudagraphRerecords  int `json:"cudagraph_rerecords"`
	// CudagraphRerecordsUnknown: failed re-record checks without the Recording lines: the number is not known
	CudagraphRerecordsUnknown bool `json:"cudagraph_rerecords_unknown,omitempty"`
	RuntimeErrors             int  `json:"runtime_errors"`
}

// StoryRun is one run of the session.
type Run struct {
	ID        int       `json:"id"`
	Name      string    `json:"name"`
	Dir       string    `json:"dir"`
	Start     time.Time `json:"start"`
	DurationS float64   `json:"duration_s"`
	Preset    string    `json:"preset"`
	TorchLogs string    `json:"torch_logs"`
	Command   string    `json:"command"`        // exactly what ran, shell-quoted, with its launcher (torchrun/srun/sh -c)
	Demo      string    `json:"demo,omitempty"` // the scenario of a `torchtriage demo` run
	// Experiment is the experiment the run is a step of (a ladder's tier): its runs share the id
	Experiment   *runs.Experiment `json:"experiment,omitempty"`
	Torch        string           `json:"torch,omitempty"`
	State        string           `json:"state"`
	ExitCode     *int             `json:"exit_code"`
	Signal       string           `json:"signal,omitempty"`
	Exit         string           `json:"exit"` // "exit 0", "timed out (SIGTERM)", …
	Metric       *float64         `json:"metric"`
	Note         string           `json:"note"`
	RelaunchedAs string           `json:"relaunched_as,omitempty"` // torch rejected a TORCH_LOGS name: this run was redone
	RelaunchNote string           `json:"relaunch_note,omitempty"`
	Counts       *Counts          `json:"counts"` // nil when the run has no logs to analyse (failed to start, unreadable)
	Logged       Logged           `json:"logged"` // which kinds its TORCH_LOGS printed
	Steady       bool             `json:"steady"`
	Verdict      string           `json:"verdict"`
	// StoppedBy is why the tool itself stopped the run ("cancelled", "timed out after 10m0s"): no failure of it
	StoppedBy string `json:"stopped_by_tool,omitempty"`
	// CountsAreFloors: the run did not complete (stopped, crashed): its counts are what it reached, each a floor
	// (the text and Markdown write "≥0 graph breaks").
	CountsAreFloors bool `json:"counts_are_floors,omitempty"`
	// CountWords words each count once, for the text, the Markdown table and the trend (countWords)
	CountWords []CountWords `json:"count_words,omitempty"`
	Changes    []Change     `json:"changes"` // since the previous run of the store
	Delta      *Delta       `json:"delta"`   // nil: no comparable earlier run
	Error      string       `json:"error,omitempty"`

	meta   runs.Meta
	an     *triage.Analysis
	probes []probe.Info
}

// Change is one thing that differs from the previous run: What is "command", "cwd", "preset", "torch", "env" or
// "code" (Key names the variable, or the file of the code under the runs' code/; an empty Before means added, an
// empty After removed; of code, Before and After are the file's sha256, shortened, and Text words the change:
// "repro.py changed (+2 −1)").
type Change struct {
	What   string `json:"what"`
	Key    string `json:"key,omitempty"`
	Before string `json:"before"`
	After  string `json:"after"`
	Text   string `json:"text,omitempty"`
}

// Delta is what a run fixed and broke against its base, the newest earlier comparable run: same command
// (preset, TORCH_LOGS and torchrun's port ignored), or failing that the same script with other arguments. A base
// must have run to completion (exit 0, or a compile error explaining its exit). Kinds that either run did not
// log (e.g. graph breaks under the guards preset) are left out and named in NotCompared, never reported gone.
type Delta struct {
	Base    int                `json:"base"`
	Basis   string             `json:"basis"`   // "same command" | "same script"
	Partial bool               `json:"partial"` // this run did not complete: a gone item may not have been reached
	Fixed   []compare.DiffItem `json:"fixed"`   // gone since the base
	New     []compare.DiffItem `json:"new"`
	Changed []compare.DiffItem `json:"changed"` // same item, other count
	// ByDesign are the items by design (or automatic dynamic's expected first recompile) that came, went or changed
	// count: no fix and no regression, but a difference all the same (Quiet words a delta of only them)
	ByDesign          []compare.DiffItem `json:"by_design"`
	Agreement         string             `json:"rank_agreement"` // "regained", "lost" or "" (unchanged or not compared)
	AgreementSummary  string             `json:"rank_agreement_summary,omitempty"`
	AgreementPlaybook string             `json:"rank_agreement_playbook,omitempty"`
	NotCompared       []string           `json:"not_compared"`
	MetricBefore      *float64           `json:"metric_before"`
}

// Agreement values of a Delta.
const (
	AgreementRegained = "regained"
	AgreementLost     = "lost"
)

// Build reads every run of the store (runs.DefaultStoreDir when "") with the built-in playbooks.
func Build(storeDir string) (*Story, error) { return BuildWith(storeDir, nil) }

// BuildWith is Build with a playbook set (nil: the built-in ones). The store is read newest to oldest
// (runs.Store.List), each run analysed like `report` does, and the story is presented oldest first.
func BuildWith(storeDir string, set *playbooks.Set) (*Story, error) {
	return BuildFor(storeDir, set, "")
}

// BuildFor is BuildWith narrowed to the runs of one script (log --script): a run whose command names it (its
// path, its name relative to the run's directory, or its file name; a -m module by its name). "" is every run.
func BuildFor(storeDir string, set *playbooks.Set, script string) (*Story, error) {
	if storeDir == "" {
		storeDir = runs.DefaultStoreDir
	}
	if st, err := os.Stat(storeDir); err != nil || !st.IsDir() {
		if err == nil {
			err = errors.New("not a directory")
		}
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("no run store at %s (%v): runs are stored by torchtriage run and check -- CMD", storeDir, err)
	}
	store, err := runs.OpenStore(storeDir)
	if err != nil {
		return nil, err
	}
	metas, err := store.List()
	if err != nil {
		return nil, err
	}
	if script != "" {
		var keep []runs.Meta
		for _, m := range metas {
			if RunsScript(m, script) {
				keep = append(keep, m)
			}
		}
		metas = keep
	}
	if set == nil {
		set, _ = playbooks.Builtin()
	}
	s := &Story{Store: storeDir, Script: script, Runs: make([]Run, len(metas)), Warnings: []string{}}
	warn := make([][]string, len(metas))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, min(4, runtime.GOMAXPROCS(0))))
	for i, m := range metas {
		at := len(metas) - 1 - i // oldest first
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			s.Runs[at], warn[at] = analyzeRun(m, set)
		}()
	}
	wg.Wait()
	for _, w := range warn {
		s.Warnings = append(s.Warnings, w...)
	}
	for i := range s.Runs {
		r := &s.Runs[i]
		if p := previousRun(s.Runs[:i]); p != nil {
			r.Changes = changesSince(&p.meta, &r.meta, p.Torch, r.Torch)
		}
		if base, basis := baseRun(s.Runs[:i], r); base != nil {
			r.Delta = buildDelta(base, r, basis)
		}
	}
	s.Env = storyEnv(s.Runs)
	return s, nil
}

// analyzeRun loads one run's logs and probe files; a run without analysable logs keeps Counts nil.
func analyzeRun(m runs.Meta, set *playbooks.Set) (Run, []string) {
	r := Run{ID: m.ID, Name: m.Name, Dir: m.Dir, Start: m.Start, DurationS: m.DurationS, Preset: m.Preset,
		TorchLogs: m.TorchLogs, Command: commandText(m), Demo: m.Demo, Experiment: m.Experiment, Torch: m.TorchVersion, State: string(m.State),
		ExitCode: m.ExitCode, Signal: m.Signal, Exit: exitText(m), Metric: m.Metric, Note: m.Note,
		RelaunchedAs: m.RelaunchedAs, RelaunchNote: m.RelaunchNote, Changes: []Change{}, Error: m.Error, meta: m}
	if m.State == runs.StateCorrupt || m.State == runs.StateFailedToStart {
		return r, nil
	}
	facts := session.RunFactsOf(m)
	if r.StoppedBy = facts.StoppedBy(); r.StoppedBy != "" {
		r.Exit = "stopped by torchtriage (" + r.StoppedBy + ")" // its signal was the tool's, not the program's death
	}
	var warnings []string
	l, err := report.Load([]string{m.Dir}, report.LoadOptions{})
	var ws []string
	if l != nil {
		ws = l.Warnings
	}
	for _, w := range ws {
		warnings = append(warnings, fmt.Sprintf("run %d: %s", m.ID, w))
	}
	if err != nil {
		r.Error = fmt.Sprintf("logs not readable: %v", err)
		return r, append(warnings, fmt.Sprintf("run %d: %s", m.ID, r.Error))
	}
	rep := l.Report
	infos, errs := probe.ReadDir(m.Dir)
	for _, e := range errs {
		warnings = append(warnings, fmt.Sprintf("run %d: %v", m.ID, e))
	}
	if len(infos) > 0 && infos[0].Torch != "" {
		r.Torch = infos[0].Torch
	}
	r.probes = infos
	r.an = triage.AnalyzeRun(rep, set, infos, facts)
	c := r.an.Report.Counts // as the analysis settled them (a run that exited 0 had no process die)
	r.Counts = &Counts{GraphBreaks: c.GraphBreaks, Recompiles: c.Recompiles, LimitHits: c.RecompileLimitHits,
		CudagraphSkips: c.CudagraphSkips, CompileErrors: c.CompileErrors, CompileErrorsCaught: r.an.CaughtCompileErrors(), Ranks: len(r.an.Evidence.Ranks),
		CudagraphPartitions: c.CudagraphPartitions, CudagraphRerecords: c.CudagraphRerecords,
		CudagraphRerecordsUnknown: c.CudagraphRerecordsUnknown, RuntimeErrors: c.RuntimeErrors}
	r.Steady, r.Verdict = r.an.Verdict.Steady, r.an.Verdict.Summary // an interrupted run's says so (RunFactsOf)
	r.CountsAreFloors = r.an.Unfinished() != ""
	r.Logged = loggedBy(m, r.an.Evidence)
	r.Logged.PartitionsNotLogged = r.an.PartitionsNotLogged()
	if r.an.PartitionsHidden() != "" {
		r.Logged.CudagraphPartitions, r.Logged.PartitionsHidden = false, true // graphs from the FX graph cache print none
	}
	r.CountWords = countWords(&r)
	return r, warnings
}

// Analysis is the run's analysis (findings, rank agreement, verdict); nil when Counts is nil.
func (r *Run) Analysis() *triage.Analysis { return r.an }

// finished: the run ran to completion, or a compile error explains why it did not: it compiled as far as it got,
// so it can be a delta's base (check is stricter: an unfinished run never passes a gate).
func (r *Run) finished() bool {
	return r.an != nil && (r.meta.Completed() || (r.meta.State == runs.StateExited && r.Counts.CompileErrors > 0))
}

// compiled: the run has an analysis and compiled at all (not the eager baseline, not a run torch rejected).
func (r *Run) compiled() bool {
	return r.an != nil && r.meta.RelaunchedAs == "" && r.meta.Preset != "eager" && r.meta.Env["TORCHDYNAMO_DISABLE"] != "1" &&
		r.an.Evidence.NothingCompiled() == "" // turned off by the program or a wrapper, or no frame compiled (the probe saw it)
}

// previousRun is the newest run before, skipping unreadable ones.
func previousRun(earlier []Run) *Run {
	for i := len(earlier) - 1; i >= 0; i-- {
		if earlier[i].meta.State != runs.StateCorrupt {
			return &earlier[i]
		}
	}
	return nil
}

// baseRun finds the run r is compared with: the newest finished compiled run with the same command, else with
// the same script. Runs still going get no delta.
func baseRun(earlier []Run, r *Run) (*Run, string) {
	if !r.compiled() || !r.meta.State.Done() {
		return nil, ""
	}
	for _, same := range []struct {
		key   func(runs.Meta) string
		basis string
	}{{commandKey, "same command"}, {scriptKey, "same script"}} {
		want := same.key(r.meta)
		for i := len(earlier) - 1; i >= 0; i-- {
			b := &earlier[i]
			if b.compiled() && b.finished() && same.key(b.meta) == want {
				return b, same.basis
			}
		}
	}
	return nil, ""
}

// storyEnv takes the environment from the newest probed run, else the newest torch version known.
func storyEnv(runs []Run) *Env {
	for i := len(runs) - 1; i >= 0; i-- {
		infos := runs[i].probes
		if len(infos) == 0 {
			continue
		}
		p := infos[0]
		e := &Env{Source: fmt.Sprintf("probe of run %d", runs[i].ID), Torch: p.Torch, Python: p.Python,
			CUDA: p.CUDA, Host: p.Host, WorldSize: max(p.WorldSize, len(infos))}
		for _, q := range infos {
			if q.GPU != "" && e.GPU == "" {
				e.GPU, e.Capability = q.GPU, q.Capability
			}
			if q.Driver != "" && e.Driver == "" {
				e.Driver = q.Driver
			}
		}
		return e
	}
	for i := len(runs) - 1; i >= 0; i-- {
		if runs[i].Torch != "" {
			return &Env{Source: fmt.Sprintf("run %d", runs[i].ID), Torch: runs[i].Torch}
		}
	}
	return nil
}
