package gate

import (
	"fmt"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Failure is one reason the gate failed, printable on one line.
type Failure struct {
	Rule     string `json:"rule"`    // the flag: "--max-graph-breaks"
	Message  string `json:"message"` // what, where, which playbook
	Finding  string `json:"finding,omitempty"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Playbook string `json:"playbook,omitempty"`
	// CompiledAt: where the user called torch.compile on what the finding's frame compiles (findings.Finding's)
	CompiledAt *probe.CompileCall `json:"compiled_at,omitempty"`
}

// Result is the outcome of Check.
type Result struct {
	Passed   bool      `json:"passed"`
	Rules    []string  `json:"rules"` // the rules checked, e.g. "--max-graph-breaks=0"
	Failures []Failure `json:"failures"`
	Improved []string  `json:"improved"` // baseline items that are gone
	Notes    []string  `json:"notes"`    // new items not counted (expected by design)
	Counts   Counts    `json:"counts"`
	// DidNotComplete says how the run fell short of its end ("exited with code 1"), "" when it completed or
	// nothing shows it did not (Analysis.Unfinished).
	DidNotComplete string `json:"did_not_complete,omitempty"`
	// RunOutcome is how the run gated ended, for a run (not logs alone): "completed", "crashed" (it exited with an
	// error), "hung" (it made no progress and where each rank waits is known: Hang), "timed_out" (the tool stopped
	// it at its timeout, no hang shown), "stopped" (cancelled, or stopped for another reason), "did_not_start",
	// "interrupted" (the tool supervising it went away)
	RunOutcome string `json:"run_outcome,omitempty"`
	// Hang is where each rank waited, of a run that hung ("rank 0 waits in all_reduce at train.py:11 · …")
	Hang string `json:"hang,omitempty"`
	// Crashed says how the launched run ended with the error --expect-crash asked for ("exited with code 1");
	// the run did not complete, and that is the pass.
	Crashed string `json:"crashed,omitempty"`
	// NoEvidence says why the inputs cannot show what the rules ask about (MissingEvidence): the gate did not pass
	// on them (exit 4), or passed only because --allow-no-evidence asked (Passed true then).
	NoEvidence string `json:"no_evidence,omitempty"`
	// NotEvaluated says, per rule the input cannot show (MissingEvidence of that rule alone), why: such a rule
	// neither passed nor failed, whatever the other rules did. A rule that failed is not in it.
	NotEvaluated map[string]string `json:"not_evaluated,omitempty"`
	// NotCounted names each count that is no count (counts keeps every value a number), with the report's words
	// ("unknown": logs alone; "not logged": TORCH_LOGS left it out; "not in the log": the program silenced it)
	NotCounted map[string]string `json:"not_counted,omitempty"`
	// SteadyState is what --no-compile-after-warmup (or --max-cudagraph-rerecords counted after warm-up) judged,
	// in report's words ("after warm-up (5 steps, by SGD.step()): nothing compiled (40 steps seen)"); absent
	// without the rule or when it could not judge
	SteadyState string `json:"steady_state,omitempty"`
}

// rule adds a rule, noting it not evaluated when the input cannot show what it asks (MissingEvidence of it alone).
func (res *Result) rule(a *triage.Analysis, rule string, alone Options) {
	res.Rules = append(res.Rules, rule)
	if why := MissingEvidence(a, alone); why != "" {
		if res.NotEvaluated == nil {
			res.NotEvaluated = map[string]string{}
		}
		res.NotEvaluated[rule] = why
	}
}

// Counts are the numbers the rules compare: every field of report's counts (Counts), by the same name and,
// with --count-expected, the same value; without it graph_breaks and recompiles leave out by-design breaks and
// automatic dynamic's expected recompiles, as the rules do. LimitHits is recompile_limit_hits by its check/v1
// name. CompileTimeS and CompileSkewS are there when a compile-time rule asked for them and the input has them.
type Counts struct {
	report.Counts
	LimitHits int `json:"limit_hits"`
	// CompileErrorsCaught: compile errors the program caught and went on after (not in compile_errors: no process
	// died of them, and --no-compile-errors passes on them); the counted line's "0 compile errors (1 caught)"
	CompileErrorsCaught int `json:"compile_errors_caught,omitempty"`
	// CompileErrorsSuppressed: of compile_errors, the ones torch suppressed itself (WON'T CONVERT, suppress_errors):
	// no process died, but the frame never compiles (it runs eager on every call), so --no-compile-errors fails
	// them; the counted line's "1 compile error (1 suppressed by torch)"
	CompileErrorsSuppressed int `json:"compile_errors_suppressed,omitempty"`
	// GraphBreaksByDesign and RecompilesExpected are what graph_breaks and recompiles leave out without
	// --count-expected (report's counts hold them)
	GraphBreaksByDesign int `json:"graph_breaks_by_design,omitempty"`
	RecompilesExpected  int `json:"recompiles_expected,omitempty"`
	// RecompilesExpectedAssumed: of those, the ones automatic dynamic's by assumption (the default): no dynamic log
	// or trace showed the symbol made (a dynamic=False run's recompile reads the same without them)
	RecompilesExpectedAssumed int      `json:"recompiles_expected_assumed,omitempty"`
	CompileTimeS              *float64 `json:"compile_time_s,omitempty"`
	// CompileTimeSource names where CompileTimeS comes from when torchtriage did not measure it (a serving
	// framework's own log line); "" when measured (TORCH_TRACE or the probe)
	CompileTimeSource string   `json:"compile_time_source,omitempty"`
	CompileSkewS      *float64 `json:"compile_skew_s,omitempty"`
	// cudagraphs: the text shows the CUDA-graph counts (a CUDA-graph rule asked, or the input logged them), but
	// not a partition count the FX graph cache hid (partitionsHidden), nor a 0 of what was not logged: skips
	// (skipsLogged), partitions and re-recordings (cudagraphsLogged)
	cudagraphs, partitionsHidden, skipsLogged, cudagraphsLogged bool
	// skipsWords, cgLogging: the report's words for skips not counted ("unknown", "not logged", "not in the log")
	// and the logging of partitions and re-recordings; uncounted: the report's words for input that counted nothing
	// (Uncounted: no torch output, nothing compiled)
	skipsWords, uncounted string
	cgLogging             report.Logging
	// breaksLogged, recompilesLogged: whether their TORCH_LOGS names were on, so the counts are whole (else Tally's words)
	breaksLogged, recompilesLogged report.Logging
	// byDesign and expected are the breaks and recompiles left out without --count-expected (the text says so:
	// report counts them)
	byDesign, expected int
}

func (res *Result) fail(rule, why string, f *findings.Finding) {
	msg := fmt.Sprintf("%s: %s", why, f.Title)
	if f.File != "" {
		msg += " · at " + f.File
		if f.Line > 0 {
			msg += fmt.Sprintf(":%d", f.Line)
		}
	}
	if len(f.Ranks) > 0 {
		msg += " · " + report.RankWord(f.Ranks)
	}
	if f.Playbook != "" {
		msg += " · playbook " + f.Playbook
	}
	res.Failures = append(res.Failures, Failure{Rule: rule, Message: msg, Finding: f.ID, File: f.File,
		Line: f.Line, Playbook: f.Playbook, CompiledAt: f.CompiledAt})
}
