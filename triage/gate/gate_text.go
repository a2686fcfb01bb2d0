package gate

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
)

// WriteGateRooted prints a gate result as text, json, github (workflow annotations, paths relative to pathRoot:
// annotationPath) or junit.
func WriteGateRooted(w io.Writer, format string, res Result, pathRoot string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(struct {
			Schema string `json:"schema"`
			Result
		}{"torchtriage.check/v1", res})
	case "github":
		for _, f := range res.Failures {
			props := ""
			if file, ok := annotationPath(f.File, pathRoot); ok {
				props = " file=" + GhProp(file)
				if f.Line > 0 {
					props += fmt.Sprintf(",line=%d", f.Line)
				}
				props += ","
			} else {
				props = " "
			}
			fmt.Fprintf(w, "::error%stitle=%s::%s\n", props, GhProp("torchtriage "+f.Rule), ghData(f.Message))
		}
		for _, s := range res.Improved {
			fmt.Fprintf(w, "::notice title=torchtriage baseline::%s\n", ghData("improved, gone: "+s))
		}
		switch {
		case res.NoEvidence != "" && !res.Passed:
			fmt.Fprintf(w, "::error title=torchtriage no evidence::%s\n", ghData(res.NoEvidence))
		case res.NoEvidence != "":
			fmt.Fprintf(w, "::warning title=torchtriage no evidence::%s\n", ghData("passing without evidence (--allow-no-evidence): "+res.NoEvidence))
		}
		if res.DidNotComplete != "" && len(res.Failures) == 0 && res.Crashed == "" {
			fmt.Fprintf(w, "::error title=torchtriage run did not complete::%s\n", ghData("the run did not complete: "+res.DidNotComplete))
		}
		for _, r := range res.notEvaluatedBeside() {
			fmt.Fprintf(w, "::warning title=%s::%s\n", GhProp("torchtriage "+r+" not evaluated"), ghData("no evidence: "+res.NotEvaluated[r]))
		}
		fmt.Fprintln(w, Summary(res))
		return nil
	case "junit":
		return writeJUnit(w, res)
	}
	for _, f := range res.Failures {
		fmt.Fprintf(w, "FAIL [%s] %s\n", f.Rule, f.Message)
	}
	for _, s := range res.Improved {
		fmt.Fprintf(w, "improved, gone: %s\n", s)
	}
	for _, s := range res.Notes {
		fmt.Fprintf(w, "note: %s\n", s)
	}
	for _, r := range res.notEvaluatedBeside() {
		fmt.Fprintf(w, "not evaluated: %s: no evidence: %s\n", r, res.NotEvaluated[r])
	}
	if res.SteadyState != "" && len(res.Failures) == 0 { // a failure says it already
		fmt.Fprintf(w, "steady state: %s\n", res.SteadyState)
	}
	fmt.Fprintln(w, Summary(res))
	return nil
}

// notEvaluatedBeside are the rules not evaluated (in rule order) where the gate's outcome does not already say so:
// beside failures of other rules (a gate with no failure and no evidence says "no evidence" as a whole).
func (res Result) notEvaluatedBeside() []string {
	if len(res.Failures) == 0 {
		return nil
	}
	var out []string
	for _, r := range res.Rules {
		if _, ok := res.NotEvaluated[r]; ok {
			out = append(out, r)
		}
	}
	return out
}

// gateTally is Tally for the gate's counted line, where by-design breaks and expected recompiles were seen but
// are not counted: n counted of seen printed.
func gateTally(n, seen int, logged report.Logging, noun, name string) string {
	if logged != report.LoggingOn && seen > 0 {
		why := name + " not logged"
		if logged == report.LoggingSilenced {
			why = "not all in the log"
		}
		return "at least " + report.Plural(n, noun) + " (" + why + ")"
	}
	return report.Tally(n, logged, noun) // n is 0 where nothing was seen
}

// limitHitsCounted is the limit hits of the counted line: a hit prints whatever TORCH_LOGS says, but not through
// a log the program silenced (Analysis.LimitHitsValue).
func limitHitsCounted(c Counts) string {
	if c.breaksLogged == report.LoggingSilenced {
		return report.Tally(c.RecompileLimitHits, report.LoggingSilenced, "limit hit")
	}
	return report.Plural(c.RecompileLimitHits, "limit hit")
}

func Summary(res Result) string {
	verdict := "PASS"
	switch {
	case !res.Passed && len(res.Failures) > 0:
		verdict = "FAIL (" + report.Plural(len(res.Failures), "failure") + ")"
	case !res.Passed && res.NoEvidence != "":
		verdict = "NO EVIDENCE"
	case !res.Passed:
		verdict = "DID NOT COMPLETE"
	}
	rules := strings.Join(res.Rules, " ")
	if rules == "" {
		rules = "no rule"
	}
	c := res.Counts
	breaks := gateTally(c.GraphBreaks, c.GraphBreaks+c.byDesign, c.breaksLogged, "graph break", "graph_breaks")
	recompiles := gateTally(c.Recompiles, c.Recompiles+c.expected, c.recompilesLogged, "recompile", "recompiles")
	if c.byDesign > 0 { // report's count includes them: say why this one differs
		breaks += fmt.Sprintf(" (and %d by design, not counted)", c.byDesign)
	}
	switch {
	case c.expected > 0 && c.RecompilesExpectedAssumed == c.expected: // the pass rests on what automatic dynamic is assumed to do
		recompiles += fmt.Sprintf(" beyond automatic dynamic (and %d expected, not counted, by assumption: "+
			"TORCH_LOGS=dynamic would show it)", c.expected)
	case c.expected > 0 && c.RecompilesExpectedAssumed > 0:
		recompiles += fmt.Sprintf(" beyond automatic dynamic (and %d expected, not counted, %d of them by assumption: "+
			"TORCH_LOGS=dynamic would show it)", c.expected, c.RecompilesExpectedAssumed)
	case c.expected > 0:
		recompiles += fmt.Sprintf(" beyond automatic dynamic (and %d expected, not counted)", c.expected)
	}
	s := fmt.Sprintf("%s · %s · counted: %s, %s, %s, %s, %s", verdict, rules, breaks, recompiles,
		limitHitsCounted(c), compileErrorsCounted(c), report.Plural(c.RuntimeErrors, "runtime error"))
	if c.uncounted != "" { // the report's words: no torch output or nothing compiled, nothing counted
		s = fmt.Sprintf("%s · %s · counted: %s", verdict, rules, c.uncounted)
		if c.RuntimeErrors > 0 {
			s += ", " + report.Plural(c.RuntimeErrors, "runtime error")
		}
	}
	if c.cudagraphs && c.uncounted == "" {
		skips := report.Plural(c.CudagraphSkips, "CUDA-graph skip")
		if c.CudagraphSkips == 0 && !c.skipsLogged {
			skips = "CUDA-graph skips " + c.skipsWords
		}
		parts := report.Plural(c.CudagraphPartitions, "non-cudagraphable partition")
		rerecords := report.Plural(c.CudagraphRerecords, "CUDA-graph re-recording")
		switch {
		case c.partitionsHidden:
			parts = "non-cudagraphable partitions not known (FX graph cache)"
		case !c.cudagraphsLogged && c.CudagraphPartitions == 0:
			parts = "non-cudagraphable partitions " + c.cgLogging.Words()
		}
		switch {
		case c.CudagraphRerecordsUnknown:
			rerecords = "CUDA-graph re-recordings not known (no Recording lines)"
		case !c.cudagraphsLogged && c.CudagraphRerecords == 0:
			rerecords = "CUDA-graph re-recordings " + c.cgLogging.Words()
		}
		s += ", " + skips + ", " + parts + ", " + rerecords
	}
	if c.CompileTimeS != nil {
		s += fmt.Sprintf(", compile time %.1f s", *c.CompileTimeS)
		if c.CompileTimeSource != "" {
			s += " (" + c.CompileTimeSource + ")"
		}
	}
	if c.CompileSkewS != nil {
		s += fmt.Sprintf(", compile skew %.1f s", *c.CompileSkewS)
	}
	switch {
	case res.Crashed != "":
		s += " · crashed as expected: " + res.Crashed
	case res.Hang != "":
		s += " · the run hung: " + res.Hang
	case res.DidNotComplete != "":
		s += " · the run did not complete: " + res.DidNotComplete
	}
	if res.NoEvidence != "" {
		s += " · no evidence: " + res.NoEvidence
	}
	return s
}

// GitHub workflow command escaping (data: %, CR, LF; properties also ':' and ',').
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func GhProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

type junitSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Suite    junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

// writeJUnit writes one test case per rule; a failed rule carries all its failure lines; a rule the input cannot
// show (NotEvaluated, with its own reason), or that found nothing on a run that did not complete, is skipped (an
// empty case reads as passed; --allow-no-evidence keeps them passed, its evidence case says so); no evidence adds a failed "evidence" case, a run that did not complete a failed "run completed" one.
func writeJUnit(w io.Writer, res Result) error {
	s := junitSuite{Name: "torchtriage check"}
	notEvaluated := "" // of every rule that found nothing, on a run that did not complete
	if res.DidNotComplete != "" && res.Crashed == "" {
		notEvaluated = "not evaluated: the run did not complete (" + res.DidNotComplete + "): what it never reached is not known"
	}
	for _, rule := range res.Rules {
		name := rule
		if i := strings.IndexByte(rule, '='); i >= 0 {
			name = rule[:i]
		}
		c := junitCase{Name: rule, ClassName: "torchtriage.check"}
		var lines []string
		for _, f := range res.Failures {
			if f.Rule == name || f.Rule == rule {
				lines = append(lines, f.Message)
			}
		}
		switch {
		case len(lines) > 0:
			c.Failure = &junitFailure{Message: lines[0], Type: name, Text: strings.Join(lines, "\n")}
			s.Failures++
		case res.NotEvaluated[rule] != "" && !(res.Passed && res.NoEvidence != ""): // each on its own evidence
			c.Skipped = &junitSkipped{Message: "not evaluated: no evidence: " + res.NotEvaluated[rule]}
			s.Skipped++
		case notEvaluated != "":
			c.Skipped = &junitSkipped{Message: notEvaluated}
			s.Skipped++
		}
		if name == "--baseline" && len(res.Improved) > 0 {
			c.SystemOut = "improved:\n" + strings.Join(res.Improved, "\n")
		}
		s.Cases = append(s.Cases, c)
	}
	if res.NoEvidence != "" { // a gate that could not look is a failure in CI's eyes, unless it was allowed
		c := junitCase{Name: "evidence", ClassName: "torchtriage.check"}
		if res.Passed {
			c.SystemOut = "passing without evidence (--allow-no-evidence): " + res.NoEvidence
		} else {
			c.Failure = &junitFailure{Message: "no evidence: " + res.NoEvidence, Type: "no-evidence", Text: "no evidence: " + res.NoEvidence}
			s.Failures++
		}
		s.Cases = append(s.Cases, c)
	}
	if res.DidNotComplete != "" && res.Crashed == "" { // a run that did not complete is a failure of its own in CI's eyes
		s.Cases = append(s.Cases, junitCase{Name: "run completed", ClassName: "torchtriage.check",
			Failure: &junitFailure{Message: "the run did not complete: " + res.DidNotComplete, Type: "did-not-complete",
				Text: "the run did not complete: " + res.DidNotComplete}})
		s.Failures++
	}
	s.Tests = len(s.Cases)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(junitSuites{Name: "torchtriage", Tests: s.Tests, Failures: s.Failures, Suite: s}); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// compileErrorsCounted is the gate's count of compile errors: "1 compile error", "0 compile errors (1 caught)",
// "1 compile error (1 suppressed by torch)".
func compileErrorsCounted(c Counts) string {
	s := report.Plural(c.CompileErrors, "compile error")
	if c.CompileErrorsSuppressed > 0 {
		s += " (" + report.Itoa(c.CompileErrorsSuppressed) + " suppressed by torch)"
	}
	return s + triage.CaughtSuffix(c.CompileErrorsCaught)
}
