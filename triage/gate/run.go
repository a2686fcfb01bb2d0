package gate

import (
	"fmt"
	"io"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
)

// check's exit statuses (`torchtriage check --help`, docs/check.md): 2 is the command line's own (a usage error or
// input that cannot be read), and a gate whose baseline or result cannot be written ends with it too.
const (
	ExitPassed         = 0
	ExitFailed         = 1 // a rule failed
	ExitError          = 2 // a baseline or result that could not be written (Run's error says which)
	ExitDidNotComplete = 3 // the run did not complete and no rule failed: nothing it never reached can pass
	ExitNoEvidence     = 4 // the inputs cannot show what the rules ask about
)

// name heads the lines the gate prints on stderr, as the command's other lines are headed.
const name = "torchtriage check"

// RunOptions are check's options beyond its rules: the baseline to write, when no evidence may pass, and the
// result's form.
type RunOptions struct {
	Rules           Options
	WriteBaseline   string // record the run as a baseline in this file (--write-baseline); "" for none
	AllowNoEvidence bool   // pass rather than ExitNoEvidence when the inputs cannot show what the rules ask about
	Format          string // text, json, github or junit
	PathRoot        string // github annotations name files relative to it (annotationPath)
}

// Input is what one gate reads.
type Input struct {
	// Analyze makes the analysis of the inputs (their report, probe files and run facts); Run calls it once,
	// unless DiskFull leaves nothing to gate.
	Analyze func() *triage.Analysis
	// Dir is the run directory the inputs are (the repro check launched, or the one run directory given): a run
	// that did not complete is said to be there, with the end of its stderr. "" for logs alone.
	Dir string
	// DiskFull is the repro check just launched ran out of disk (its Meta.DiskFull): its logs stop where the disk
	// filled, so nothing is gated on them.
	DiskFull string
}

// Outcome is how a gate ended: its result (as printed) and check's exit status.
type Outcome struct {
	Result Result
	Exit   int
}

// BaselineError is a baseline file that could not be written (--write-baseline): the user's to fix.
type BaselineError struct{ Err error }

func (e BaselineError) Error() string { return e.Err.Error() }
func (e BaselineError) Unwrap() error { return e.Err }

// Run is `torchtriage check` once its inputs are read: the rules applied (Check), the baseline written when
// asked and the run can make one, the result printed on stdout in o.Format, what the user must know on stderr,
// and the exit status:
//   - a run that did not complete shows nothing of what it never reached: no pass, no baseline
//     (ExitDidNotComplete), unless a rule it broke before it stopped fails it (ExitFailed), the result saying it
//     did not complete; stderr says how it fell short, where it is, and its first failure or where it stopped;
//   - a run without its graph breaks and recompiles logged makes no baseline: every later one would be new;
//   - a pass on inputs that cannot show what the rules ask about means nothing (ExitNoEvidence), unless
//     o.AllowNoEvidence; a failure stands.
//
// The machine formats print the result whatever the status, so that a CI step reading it has one; text says
// the statuses 3 and 4 on stderr alone. A non-nil error ends check with Outcome.Exit and the error as its one
// line: ExitDidNotComplete for in.DiskFull, ExitError for a baseline (BaselineError) or result not written.
func Run(stdout, stderr io.Writer, in Input, o RunOptions) (Outcome, error) {
	if in.DiskFull != "" {
		return Outcome{Exit: ExitDidNotComplete}, fmt.Errorf("disk full: %s; run dir %s keeps what was written before", in.DiskFull, in.Dir)
	}
	a := in.Analyze()
	res := Check(a, o.Rules)
	write := o.WriteBaseline
	if res.DidNotComplete != "" && res.Crashed == "" {
		tellIncomplete(stderr, in.Dir, res.DidNotComplete, a.Verdict.FirstFailure, a)
		if write != "" {
			fmt.Fprintf(stderr, "%s: no baseline written: the run did not complete\n", name)
			write = ""
		}
		if len(res.Failures) == 0 {
			res.Passed = false // nothing it never reached can pass
			return o.machineResult(stdout, res, ExitDidNotComplete)
		}
	}
	if write != "" {
		if why := MissingEvidence(a, Options{MaxGraphBreaks: -1, MaxRecompiles: -1, WriteBaseline: true}); why != "" {
			fmt.Fprintf(stderr, "%s: no baseline written: %s\n", name, why)
			write = ""
			if res.Passed {
				res.Passed, res.NoEvidence = false, "no baseline written: "+why
				return o.machineResult(stdout, res, ExitNoEvidence)
			}
		}
	}
	if write != "" {
		b := NewBaseline(a)
		b.Command = o.Rules.Command
		if err := WriteBaseline(write, b); err != nil {
			return Outcome{Result: res, Exit: ExitError}, BaselineError{err}
		}
		holds := report.Plural(len(b.Items), "item")
		if len(b.Compile) > 0 {
			holds += ", compile time of " + report.Plural(len(b.Compile), "frame")
		}
		fmt.Fprintf(stderr, "%s: wrote baseline %s (%s)\n", name, write, holds)
	}
	if why := MissingEvidence(a, o.Rules); res.Passed && why != "" && !o.Rules.onlyExpectCrash() {
		res.NoEvidence = why
		if !o.AllowNoEvidence {
			fmt.Fprintf(stderr, "%s: no evidence: %s\n", name, why)
			res.Passed = false
			return o.machineResult(stdout, res, ExitNoEvidence)
		}
		fmt.Fprintf(stderr, "%s: passing without evidence (--allow-no-evidence): %s\n", name, why)
	}
	if err := WriteGateRooted(stdout, o.Format, res, o.PathRoot); err != nil {
		return Outcome{Result: res, Exit: ExitError}, err
	}
	if !res.Passed {
		return Outcome{Result: res, Exit: ExitFailed}, nil
	}
	return Outcome{Result: res, Exit: ExitPassed}, nil
}

// machineResult ends a gate with exit 3 or 4: the machine formats still print the result (passed false, and
// did_not_complete or no_evidence say why), so that a CI step reading it has one; text has said it on stderr.
func (o RunOptions) machineResult(stdout io.Writer, res Result, exit int) (Outcome, error) {
	if o.Format != "text" {
		if err := WriteGateRooted(stdout, o.Format, res, o.PathRoot); err != nil {
			return Outcome{Result: res, Exit: ExitError}, err
		}
	}
	return Outcome{Result: res, Exit: exit}, nil
}
