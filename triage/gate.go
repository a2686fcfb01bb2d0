package triage

import (
	"fmt"
	"strings"
	"time"
)

// GateOptions are the rules of `torchtriage check`. A negative maximum means no limit.
type GateOptions struct {
	MaxGraphBreaks  int  // distinct graph breaks; by-design ones count only with CountExpected
	MaxRecompiles   int  // recompiles; automatic dynamic's expected first one counts only with CountExpected
	NoLimitHits     bool // any recompile-limit hit fails
	RanksAgree      bool // ranks must break and recompile alike (and run with the same settings, when probed)
	NoCompileErrors bool // any fatal error fails (compile errors and launcher/uncaught exceptions)
	CountExpected   bool
	Baseline        *Baseline // fail on a break, recompile class or skip reason not in it
	Command         string    // the command of the run gated (Baseline.Command's words), "" for logs alone
	// compile time (gate_compile.go): 0 = no limit
	MaxCompileTime   time.Duration // total compile time, all ranks
	MaxCompileSkew   time.Duration // slowest rank minus fastest
	CompileTolerance *float64      // baseline frames may grow this much (nil: DefaultTolerance, 15 %)
	// CUDA graphs: NoCudagraphSkips fails on skips and non-cudagraphable partitions; MaxCudagraphRerecords
	// (nil: no limit) on re-recordings beyond it
	NoCudagraphSkips      bool
	MaxCudagraphRerecords *int
	// WriteBaseline: the run is to be recorded as a baseline (--write-baseline), which needs its graph breaks and
	// recompiles logged: a baseline without them would call every later one new
	WriteBaseline bool
}

// Rules reports whether any rule is set.
func (o GateOptions) Rules() bool {
	return o.NoCudagraphSkips || o.MaxCudagraphRerecords != nil || o.MaxGraphBreaks >= 0 || o.MaxRecompiles >= 0 || o.NoLimitHits || o.RanksAgree || o.NoCompileErrors || o.Baseline != nil ||
		o.MaxCompileTime > 0 || o.MaxCompileSkew > 0
}

// GateFailure is one reason the gate failed, printable on one line.
type GateFailure struct {
	Rule     string `json:"rule"`    // the flag: "--max-graph-breaks"
	Message  string `json:"message"` // what, where, which playbook
	Finding  string `json:"finding,omitempty"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Playbook string `json:"playbook,omitempty"`
}

// GateResult is the outcome of Gate.
type GateResult struct {
	Passed   bool          `json:"passed"`
	Rules    []string      `json:"rules"` // the rules checked, e.g. "--max-graph-breaks=0"
	Failures []GateFailure `json:"failures"`
	Improved []string      `json:"improved"` // baseline items that are gone
	Notes    []string      `json:"notes"`    // new items not counted (expected by design)
	Counts   GateCounts    `json:"counts"`
	// DidNotComplete says how the run fell short of its end ("exited with code 1"), "" when it completed or
	// nothing shows it did not (Analysis.Unfinished).
	DidNotComplete string `json:"did_not_complete,omitempty"`
	// NoEvidence says why the inputs cannot show what the rules ask about (MissingEvidence): the gate did not pass
	// on them (exit 4), or passed only because --allow-no-evidence asked (Passed true then).
	NoEvidence string `json:"no_evidence,omitempty"`
	// NotEvaluated says, per rule the input cannot show (MissingEvidence of that rule alone), why: such a rule
	// neither passed nor failed, whatever the other rules did. A rule that failed is not in it.
	NotEvaluated map[string]string `json:"not_evaluated,omitempty"`
	// NotCounted names each count that is no count (counts keeps every value a number), with the report's words
	// ("unknown": logs alone; "not logged": TORCH_LOGS left it out; "not in the log": the program silenced it)
	NotCounted map[string]string `json:"not_counted,omitempty"`
}

// single is o with every rule off (the settings rules share kept): the base of one rule's options.
func (o GateOptions) single() GateOptions {
	return GateOptions{MaxGraphBreaks: -1, MaxRecompiles: -1, CountExpected: o.CountExpected, Command: o.Command,
		CompileTolerance: o.CompileTolerance}
}

// rule adds a rule, noting it not evaluated when the input cannot show what it asks (MissingEvidence of it alone).
func (res *GateResult) rule(a *Analysis, rule string, alone GateOptions) {
	res.Rules = append(res.Rules, rule)
	if why := MissingEvidence(a, alone); why != "" {
		if res.NotEvaluated == nil {
			res.NotEvaluated = map[string]string{}
		}
		res.NotEvaluated[rule] = why
	}
}

// GateCounts are the numbers the rules compare: every field of report's counts (Counts), by the same name and,
// with --count-expected, the same value; without it graph_breaks and recompiles leave out by-design breaks and
// automatic dynamic's expected recompiles, as the rules do. LimitHits is recompile_limit_hits by its check/v1
// name. CompileTimeS and CompileSkewS are there when a compile-time rule asked for them and the input has them.
type GateCounts struct {
	Counts
	LimitHits int `json:"limit_hits"`
	// CompileErrorsCaught: compile errors the program caught and went on after (not in compile_errors: no process
	// died of them, and --no-compile-errors passes on them); the counted line's "0 compile errors (1 caught)"
	CompileErrorsCaught int `json:"compile_errors_caught,omitempty"`
	// GraphBreaksByDesign and RecompilesExpected are what graph_breaks and recompiles leave out without
	// --count-expected (report's counts hold them)
	GraphBreaksByDesign int `json:"graph_breaks_by_design,omitempty"`
	RecompilesExpected  int `json:"recompiles_expected,omitempty"`
	// RecompilesExpectedAssumed: of those, the ones automatic dynamic's by assumption (the default): no dynamic log
	// or trace showed the symbol made (a dynamic=False run's recompile reads the same without them)
	RecompilesExpectedAssumed int      `json:"recompiles_expected_assumed,omitempty"`
	CompileTimeS              *float64 `json:"compile_time_s,omitempty"`
	CompileSkewS              *float64 `json:"compile_skew_s,omitempty"`
	// cudagraphs: the text shows the CUDA-graph counts (a CUDA-graph rule asked, or the input logged them), but
	// not a partition count the FX graph cache hid (partitionsHidden), nor a 0 of what was not logged: skips
	// (skipsLogged), partitions and re-recordings (cudagraphsLogged)
	cudagraphs, partitionsHidden, skipsLogged, cudagraphsLogged bool
	// skipsWords, cgLogging: the report's words for skips not counted ("unknown", "not logged", "not in the log")
	// and the logging of partitions and re-recordings; uncounted: the report's words for input that counted nothing
	// (Uncounted: no torch output, nothing compiled)
	skipsWords, uncounted string
	cgLogging             Logging
	// breaksLogged, recompilesLogged: whether their TORCH_LOGS names were on, so the counts are whole (else Tally's words)
	breaksLogged, recompilesLogged Logging
	// byDesign and expected are the breaks and recompiles left out without --count-expected (the text says so:
	// report counts them)
	byDesign, expected int
}

// Gate applies the rules to an analysis.
func Gate(a *Analysis, o GateOptions) GateResult {
	res := GateResult{Rules: []string{}, Failures: []GateFailure{}, Improved: []string{}, Notes: []string{},
		DidNotComplete: a.Unfinished()}
	rc := a.Report.Counts
	res.Counts.breaksLogged = a.Evidence.LoggingOf(a.Evidence.GraphBreaksLogged)
	res.Counts.recompilesLogged = a.Evidence.LoggingOf(a.Evidence.RecompilesLogged)
	res.Counts.GraphBreakRecords, res.Counts.CudagraphRerecords = rc.GraphBreakRecords, rc.CudagraphRerecords
	res.Counts.CudagraphRerecordChecks, res.Counts.CudagraphRerecordsUnknown = rc.CudagraphRerecordChecks, rc.CudagraphRerecordsUnknown
	var breaks, recomps, limits, errs []*Finding
	for i := range a.Findings {
		f := &a.Findings[i]
		switch f.Kind {
		case KindGraphBreak:
			if o.CountExpected || !f.Expected {
				breaks = append(breaks, f)
				res.Counts.GraphBreaks++
			} else {
				res.Counts.byDesign++
			}
		case KindRecompile:
			n := f.Unexpected()
			if o.CountExpected {
				n = f.Records
			}
			res.Counts.expected += f.Records - n
			if f.expectedAssumed {
				res.Counts.RecompilesExpectedAssumed += f.Records - n
			}
			if n > 0 {
				recomps = append(recomps, f)
				res.Counts.Recompiles += n
			}
		case KindLimitHit:
			limits = append(limits, f)
			res.Counts.LimitHits += f.Records
			res.Counts.RecompileLimitHits += f.Records
		case KindCudagraphSkip:
			res.Counts.CudagraphSkips += f.Records
		case KindCudagraphPartition:
			res.Counts.CudagraphPartitions += f.Records
		case KindCompileError:
			if f.Caught { // no process died of it: --no-compile-errors is about deaths; the counted line shows it
				res.Counts.CompileErrorsCaught += f.Records
				continue
			}
			errs = append(errs, f)
			res.Counts.CompileErrors += f.Records
		case KindRuntimeError:
			errs = append(errs, f)
			res.Counts.RuntimeErrors += f.Records
		}
	}
	if o.MaxGraphBreaks >= 0 {
		rule := fmt.Sprintf("--max-graph-breaks=%d", o.MaxGraphBreaks)
		alone := o.single()
		alone.MaxGraphBreaks = o.MaxGraphBreaks
		res.rule(a, rule, alone)
		if res.Counts.GraphBreaks > o.MaxGraphBreaks {
			for _, f := range breaks {
				res.fail(rule, fmt.Sprintf("%s > %d", Plural(res.Counts.GraphBreaks, "graph break"), o.MaxGraphBreaks), f)
			}
		}
	}
	if o.MaxRecompiles >= 0 {
		rule := fmt.Sprintf("--max-recompiles=%d", o.MaxRecompiles)
		alone := o.single()
		alone.MaxRecompiles = o.MaxRecompiles
		res.rule(a, rule, alone)
		if res.Counts.Recompiles > o.MaxRecompiles {
			for _, f := range recomps {
				res.fail(rule, fmt.Sprintf("%s > %d", Plural(res.Counts.Recompiles, "recompile"), o.MaxRecompiles), f)
			}
		}
	}
	if o.NoLimitHits {
		alone := o.single()
		alone.NoLimitHits = true
		res.rule(a, "--no-limit-hits", alone)
		for _, f := range limits {
			res.fail("--no-limit-hits", "recompile limit hit", f)
		}
	}
	if o.NoCompileErrors {
		alone := o.single()
		alone.NoCompileErrors = true
		res.rule(a, "--no-compile-errors", alone)
		for _, f := range errs {
			what := "compile error"
			if f.Kind == KindRuntimeError {
				what = "runtime error"
			}
			res.fail("--no-compile-errors", Plural(f.Records, what), f)
		}
	}
	if o.RanksAgree {
		alone := o.single()
		alone.RanksAgree = true
		res.rule(a, "--ranks-agree", alone)
		res.ranksRule(a)
	}
	if o.Baseline != nil {
		alone := o.single()
		alone.Baseline = o.Baseline
		res.rule(a, "--baseline", alone)
		res.baselineRule(a, o)
	}
	res.compileRules(a, o)
	res.cudagraphRules(a, o)
	for _, f := range res.Failures { // a failure stands: the rule was evaluated
		for r := range res.NotEvaluated {
			if r == f.Rule || strings.HasPrefix(r, f.Rule+"=") {
				delete(res.NotEvaluated, r)
			}
		}
	}
	res.Counts.cudagraphs = o.NoCudagraphSkips || o.MaxCudagraphRerecords != nil || cudagraphsLogged(a) ||
		res.Counts.CudagraphSkips > 0 || res.Counts.CudagraphPartitions > 0
	res.Counts.partitionsHidden = a.PartitionsHidden() != ""
	res.Counts.skipsLogged, res.Counts.cudagraphsLogged = a.Evidence.CudagraphSkipsLogged, cudagraphsLogged(a)
	res.Counts.skipsWords, res.Counts.uncounted = a.CudagraphSkipsValue(), a.Uncounted()
	res.Counts.cgLogging = a.Evidence.LoggingOf(cudagraphsLogged(a))
	res.Counts.GraphBreaksByDesign, res.Counts.RecompilesExpected = res.Counts.byDesign, res.Counts.expected
	for name, lg := range map[string]Logging{"graph_breaks": res.Counts.breaksLogged, "recompiles": res.Counts.recompilesLogged} {
		if w := lg.Words(); w != "" {
			if res.NotCounted == nil {
				res.NotCounted = map[string]string{}
			}
			res.NotCounted[name] = w
		}
	}
	if !a.SkipsCounted() {
		if res.NotCounted == nil {
			res.NotCounted = map[string]string{}
		}
		res.NotCounted["cudagraph_skips"] = a.CudagraphSkipsValue()
	}
	res.Passed = len(res.Failures) == 0
	return res
}

func (res *GateResult) fail(rule, why string, f *Finding) {
	msg := fmt.Sprintf("%s: %s", why, f.Title)
	if f.File != "" {
		msg += " · at " + f.File
		if f.Line > 0 {
			msg += fmt.Sprintf(":%d", f.Line)
		}
	}
	if len(f.Ranks) > 0 {
		msg += " · " + rankWord(f.Ranks)
	}
	if f.Playbook != "" {
		msg += " · playbook " + f.Playbook
	}
	res.Failures = append(res.Failures, GateFailure{Rule: rule, Message: msg, Finding: f.ID, File: f.File,
		Line: f.Line, Playbook: f.Playbook})
}

func (res *GateResult) ranksRule(a *Analysis) {
	ra := a.RankAgreement
	pb := ""
	for i := range a.Findings {
		f := &a.Findings[i]
		switch f.Kind {
		case KindRankDisagreement:
			pb = f.Playbook
		case KindConfigParity:
			res.fail("--ranks-agree", "settings differ", f)
		}
	}
	if !ra.Disagree() { // agreeing (the probes' compiles noted where they differ), or not compared (MissingEvidence)
		res.compilesNote(ra)
		return
	}
	ref := ra.Groups[0]
	for _, g := range ra.Groups[1:] {
		var parts []string
		for _, e := range g.Extra {
			parts = append(parts, "extra "+e)
		}
		for _, m := range g.Missing {
			parts = append(parts, "missing "+m)
		}
		msg := fmt.Sprintf("%s differs from %s: %s", rankWord(g.Ranks), rankWord(ref.Ranks), strings.Join(capList(parts, 4), ", "))
		if fd := groupFirstDivergent(g); fd != "" {
			msg += " · first divergent compile id " + fd
		}
		if basis := ra.ProbeBasis(); basis != "" { // a rank no log record names: what its "none" rests on
			msg += " · " + basis
		}
		for _, o := range ra.othersWords() { // ranks whose own agreement is not earned: not compared, and why
			msg += " · " + o
		}
		if pb != "" {
			msg += " · playbook " + pb
		}
		res.Failures = append(res.Failures, GateFailure{Rule: "--ranks-agree", Message: msg, Finding: string(KindRankDisagreement), Playbook: pb})
	}
}

func (res *GateResult) baselineRule(a *Analysis, o GateOptions) {
	keyOf := (*Finding).CompareKey
	if o.Baseline.byLine {
		keyOf = (*Finding).lineKey
	}
	now := baselineItems(a, keyOf)
	had := map[string]BaselineItem{}
	for _, it := range o.Baseline.Items {
		had[it.Key] = it
	}
	for _, it := range now {
		if _, ok := had[it.Key]; ok {
			continue
		}
		if it.Expected && !o.CountExpected {
			res.Notes = append(res.Notes, "new but expected (not counted): "+it.Title)
			continue
		}
		f := it.finding
		res.fail("--baseline", "new "+KindWord(it.Kind)+" not in the baseline", f)
	}
	seen := map[string]bool{}
	for _, it := range now {
		seen[it.Key] = true
	}
	unseen := map[Kind]string{} // kinds the input could not show: their baseline items are not gone
	// a run of another command, or one that stopped short, shows nothing of what it never ran or reached
	notGone := ""
	switch {
	case o.Baseline.Command != "" && o.Command != "" && o.Baseline.Command != o.Command:
		notGone = "the baseline was written from another command (" + o.Baseline.Command + "; this run: " + o.Command + ")"
	case a.Unfinished() != "":
		notGone = "the run did not complete (" + a.Unfinished() + ")"
	}
	missing := 0
	for _, it := range o.Baseline.Items {
		if seen[it.Key] {
			continue
		}
		if notGone != "" {
			missing++
			continue
		}
		if why := a.unlogged(it.Kind); why != "" {
			unseen[it.Kind] = why
			continue
		}
		res.Improved = append(res.Improved, fmt.Sprintf("%s %s (was %d×)", KindWord(it.Kind), it.Title, it.Records))
	}
	for _, k := range diffKindOrder {
		if why := unseen[k]; why != "" {
			res.Notes = append(res.Notes, fmt.Sprintf("%s of the baseline not compared: the input %s", KindPlural(k), why))
		}
	}
	if missing > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%s of the baseline not seen here, not counted as gone: %s",
			Plural(missing, "item"), notGone))
	}
}

func KindWord(kind Kind) string {
	switch kind {
	case KindGraphBreak:
		return "graph break"
	case KindRecompile:
		return "recompile reason"
	case KindCudagraphSkip:
		return "CUDA-graph skip"
	}
	return strings.ReplaceAll(string(kind), "_", " ")
}
