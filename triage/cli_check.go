package triage

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/torchtriage/torchtriage/triage/runner"
)

const checkUsage = `usage: torchtriage check PATH... [flags]
       torchtriage check [flags] -- CMD ARGS...

The daily regression gate: reads logs like report and fails when a rule is broken. With -- CMD, it first
launches the repro (stored as a run under --store, like torchtriage run) and gates on what it printed.
  --max-graph-breaks N   at most N distinct graph breaks (by-design ones count only with --count-expected)
  --max-recompiles N     at most N recompiles (automatic dynamic's expected first one per dimension
                         counts only with --count-expected)
  --no-limit-hits        no recompile-limit hit
  --ranks-agree          every rank breaks and recompiles alike (and runs with the same settings, when probed)
  --no-compile-errors    no fatal compile error or launcher/uncaught exception
  --baseline FILE        no graph break, recompile reason class or CUDA-graph skip that FILE does not have;
                         what is gone is reported as improved
  --write-baseline FILE  record this run as a baseline
  --count-expected       count by-design breaks and expected recompiles too
  --format FMT           text, json, github (::error annotations) or junit
Launching (with -- CMD):
  --preset NAME          TORCH_LOGS preset (default breaks; see torchtriage presets)
  --timeout D            stop the repro after D (e.g. 10m): SIGINT, then SIGTERM, then SIGKILL
  --stall D              no output for D marks the run stalled (default 5m)
  --nproc N              run CMD under torchrun --nproc-per-node N;  --launcher torchrun|srun
  --shell                run CMD under sh -c;  --no-probe  do not install the in-process probe
  --store DIR            where runs are stored (default .torchtriage/runs)
Exit status: 0 passed, 1 a rule failed (one line per failure: what, where, which playbook),
2 usage error or unreadable input, 3 the repro did not run to completion (timed out, killed, or exited
non-zero without a compile error explaining it): the run dir and the end of its stderr are printed.
`

// CmdCheck implements `torchtriage check`.
func CmdCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := newCLI("check", checkUsage, stderr)
	fs, fail := c.fs, c.fail
	var o GateOptions
	fs.IntVar(&o.MaxGraphBreaks, "max-graph-breaks", -1, "")
	fs.IntVar(&o.MaxRecompiles, "max-recompiles", -1, "")
	fs.BoolVar(&o.NoLimitHits, "no-limit-hits", false, "")
	fs.BoolVar(&o.RanksAgree, "ranks-agree", false, "")
	fs.BoolVar(&o.NoCompileErrors, "no-compile-errors", false, "")
	fs.BoolVar(&o.CountExpected, "count-expected", false, "")
	baseline := fs.String("baseline", "", "")
	write := fs.String("write-baseline", "", "")
	format := fs.String("format", "text", "")
	var launch launchFlags
	launch.register(fs)
	args, cmd := splitCommand(args)
	paths, code, ok := c.parse(args)
	if !ok {
		return code
	}
	var err error
	switch {
	case *format != "text" && *format != "json" && *format != "github" && *format != "junit":
		return fail("unknown --format %q (text, json, github or junit)", *format)
	case cmd != nil && len(paths) > 0:
		return fail("give either log paths or -- CMD, not both")
	case cmd != nil && len(cmd) == 0:
		return fail("no command after --")
	case cmd == nil && len(paths) == 0:
		return fail("no input given (a file, a directory or - for stdin), or -- CMD to launch a repro")
	case *baseline != "" && *baseline == *write:
		return fail("--baseline and --write-baseline name the same file")
	}
	if *baseline != "" {
		if o.Baseline, err = ReadBaseline(*baseline); err != nil {
			return fail("%v", err)
		}
	}
	if !o.Rules() && *write == "" {
		return fail("no rule given (--max-graph-breaks, --max-recompiles, --no-limit-hits, --ranks-agree, --no-compile-errors, --baseline, --write-baseline)")
	}
	var ran *runner.Meta
	if cmd != nil {
		dir, meta, err := runForCheck(launch, cmd, stderr)
		if err != nil {
			return fail("%v", err)
		}
		paths, ran = []string{dir}, &meta
		fmt.Fprintf(stderr, "torchtriage check: run stored in %s\n", dir)
	}
	rep, warnings, err := BuildReport(paths, stdin)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "torchtriage check: warning: %s\n", w)
	}
	if err != nil {
		return fail("%v", err)
	}
	if ran != nil && !completed(*ran) && rep.Counts.CompileErrors == 0 {
		tellIncomplete(stderr, paths[0], *ran)
		return ExitDidNotComplete
	}
	a := Analyze(rep, loadPlaybooks("check", stderr), readProbes(paths, "check", stderr))
	if *write != "" {
		if err := WriteBaseline(*write, NewBaseline(a)); err != nil {
			return fail("%v", err)
		}
		fmt.Fprintf(stderr, "torchtriage check: wrote baseline %s (%d items)\n", *write, len(baselineItems(a)))
	}
	res := Gate(a, o)
	if err := writeGate(stdout, *format, res); err != nil {
		return fail("%v", err)
	}
	if !res.Passed {
		return 1
	}
	return 0
}

func writeGate(w io.Writer, format string, res GateResult) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(struct {
			Schema string `json:"schema"`
			GateResult
		}{"torchtriage.check/v1", res})
	case "github":
		for _, f := range res.Failures {
			props := ""
			if f.File != "" {
				props = " file=" + ghProp(relPath(f.File))
				if f.Line > 0 {
					props += fmt.Sprintf(",line=%d", f.Line)
				}
				props += ","
			} else {
				props = " "
			}
			fmt.Fprintf(w, "::error%stitle=%s::%s\n", props, ghProp("torchtriage "+f.Rule), ghData(f.Message))
		}
		for _, s := range res.Improved {
			fmt.Fprintf(w, "::notice title=torchtriage baseline::%s\n", ghData("improved, gone: "+s))
		}
		fmt.Fprintln(w, gateSummary(res))
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
	fmt.Fprintln(w, gateSummary(res))
	return nil
}

func gateSummary(res GateResult) string {
	verdict := "PASS"
	if !res.Passed {
		verdict = fmt.Sprintf("FAIL (%d failure(s))", len(res.Failures))
	}
	rules := strings.Join(res.Rules, " ")
	if rules == "" {
		rules = "no rule"
	}
	c := res.Counts
	return fmt.Sprintf("%s · %s · counted: %d graph breaks, %d recompiles, %d limit hits, %d fatal errors",
		verdict, rules, c.GraphBreaks, c.Recompiles, c.LimitHits, c.CompileErrors)
}

// GitHub workflow command escaping (data: %, CR, LF; properties also ':' and ',').
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// relPath makes a file relative to the working directory when it lies under it (annotations want repo paths).
func relPath(file string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(file) {
		return file
	}
	if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return file
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
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

// writeJUnit writes one test case per rule; a failed rule carries all its failure lines.
func writeJUnit(w io.Writer, res GateResult) error {
	s := junitSuite{Name: "torchtriage check"}
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
		if len(lines) > 0 {
			c.Failure = &junitFailure{Message: lines[0], Type: name, Text: strings.Join(lines, "\n")}
			s.Failures++
		}
		if name == "--baseline" && len(res.Improved) > 0 {
			c.SystemOut = "improved:\n" + strings.Join(res.Improved, "\n")
		}
		s.Cases = append(s.Cases, c)
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
