package triagetest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
	"github.com/torchtriage/torchtriage/triage/story"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Fixture is the path of a real log under testdata/fixtures ("torch-2.14/gb_recompile.triage.log").
func Fixture(tb testing.TB, name string) string { return testlogs.Path(tb, "fixtures", name) }

// LoadReport loads paths into a report, failing the test on an error.
func LoadReport(tb testing.TB, paths ...string) *report.Report {
	tb.Helper()
	l, err := report.Load(paths, report.LoadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return l.Report
}

// AnalyzeFiles analyzes logs with the built-in playbooks; a relative path is a fixture's (Fixture).
func AnalyzeFiles(tb testing.TB, paths ...string) *triage.Analysis {
	tb.Helper()
	for i, p := range paths {
		if !filepath.IsAbs(p) {
			paths[i] = Fixture(tb, p)
		}
	}
	set, err := playbooks.Builtin()
	if err != nil {
		tb.Fatal(err)
	}
	return triage.Analyze(LoadReport(tb, paths...), set, nil)
}

// SynthAnalysis analyzes the records add folds into an aggregator of ranks ranks, as a completed run whose
// TORCH_LOGS logged breaks and recompiles: what the synthetic records leave out (nothing) is known not to have
// happened.
func SynthAnalysis(tb testing.TB, ranks int, add func(agg *report.Aggregator)) *triage.Analysis {
	tb.Helper()
	agg := report.NewAggregator()
	agg.AddInput("synthetic.log", -1)
	for r := 0; r < ranks; r++ {
		agg.AddRank(r)
	}
	add(agg)
	return triage.AnalyzeRun(agg.Report(), nil, nil, &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogs: "graph_breaks,recompiles",
		TorchLogsSet: true, WorldSize: ranks})
}

// AnalyzeRun analyzes one log as a stored run with the facts run gives, with the built-in playbooks.
func AnalyzeRun(tb testing.TB, path string, run *report.RunFacts) *triage.Analysis {
	tb.Helper()
	set, err := playbooks.Builtin()
	if err != nil {
		tb.Fatal(err)
	}
	return triage.AnalyzeRun(LoadReport(tb, path), set, nil, run)
}

// ReportPaths analyzes inputs exactly as `torchtriage report PATH…` does: a store holding one run is read as
// that run (runs.Metas.OneRunOf), the inputs are loaded together (report.Load, each file or directory once), the
// probe files of every run directory are read (session.ReadProbes), and a single run directory adds the run facts
// its meta.json says (session.RunFactsOf), with the built-in playbooks. An unreadable input or probe file fails
// the test (the command says so on stderr), and so does what the command refuses: a store of several runs, or
// more than one run directory.
func ReportPaths(tb testing.TB, paths ...string) *triage.Analysis {
	tb.Helper()
	a, _, _, _ := reportPaths(tb, paths...)
	return a
}

// reportPaths is ReportPaths, with the run directory read when the inputs are one (its meta.json's), "" when not.
func reportPaths(tb testing.TB, paths ...string) (*triage.Analysis, []report.ProcessInfo, string, runs.Meta) {
	tb.Helper()
	metas := runs.Metas{}
	in := make([]string, len(paths))
	named := 0
	for i, p := range paths {
		in[i] = p
		if one := metas.OneRunOf(p); one != "" {
			in[i] = one
		}
		if _, err := metas.Load(in[i]); err == nil {
			named++
		} else if n, _ := metas.StoreRuns(in[i]); n > 1 {
			tb.Fatalf("%s is a run store of %d runs: report refuses it", p, n)
		}
	}
	if named > 1 {
		tb.Fatalf("%v name %d runs: report refuses them", paths, named)
	}
	l, err := report.Load(in, report.LoadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	var probes []report.ProcessInfo
	for _, p := range l.Paths {
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			continue
		}
		infos, errs := session.ReadProbes(p)
		for _, err := range errs {
			tb.Fatal(err)
		}
		probes = append(probes, infos...)
	}
	var facts *report.RunFacts
	var dir string
	var meta runs.Meta
	if len(l.Paths) == 1 {
		if m, err := metas.Load(l.Paths[0]); err == nil {
			facts, dir, meta = session.RunFactsOf(m), l.Paths[0], m
		}
	}
	set, err := playbooks.Builtin()
	if err != nil {
		tb.Fatal(err)
	}
	return triage.AnalyzeRun(l.Report, set, probes, facts), probes, dir, meta
}

// CheckPaths gates inputs as `torchtriage check PATH…` does with o (its rules: a count rule not given is -1,
// no limit): the analysis of ReportPaths, the command of the one run directory given (for a baseline), and
// gate.Run; it returns the outcome (check's exit status) and what the command prints on stdout and stderr.
func CheckPaths(tb testing.TB, o gate.RunOptions, paths ...string) (out gate.Outcome, stdout, stderr string) {
	tb.Helper()
	a, _, dir, meta := reportPaths(tb, paths...)
	if len(meta.UserArgv) > 0 {
		o.Rules.Command = runs.ShellJoin(meta.UserArgv)
	}
	if o.Format == "" {
		o.Format = "text"
	}
	var sout, serr strings.Builder
	out, err := gate.Run(&sout, &serr, gate.Input{Analyze: func() *triage.Analysis { return a }, Dir: dir}, o)
	if err != nil {
		tb.Fatal(err)
	}
	return out, sout.String(), serr.String()
}

// Render is an analysis as `torchtriage report --format FORMAT --width WIDTH` prints it (text, markdown or json)
// to a UTF-8 terminal's environment.
func Render(tb testing.TB, a *triage.Analysis, format string, width int) string {
	tb.Helper()
	var b strings.Builder
	if err := render.WriteReport(&b, a, format, text.Options{Width: width}); err != nil {
		tb.Fatal(err)
	}
	return b.String()
}

// ReportText is ReportPaths rendered as report's text, width columns wide.
func ReportText(tb testing.TB, width int, paths ...string) string {
	tb.Helper()
	return Render(tb, ReportPaths(tb, paths...), "text", width)
}

// ReportJSON is ReportPaths rendered as report's JSON.
func ReportJSON(tb testing.TB, paths ...string) string {
	tb.Helper()
	return Render(tb, ReportPaths(tb, paths...), "json", 0)
}

// Pair reads A and B as `torchtriage diff A B` and `compare A B` do: each side as ReportPaths reads it alone, with
// its probe files and its run's metric, named as given; and, when both are stored runs, whether they ran different
// commands (the words diff and compare say of it, "" when the same or either is no run) and the files of the code
// they kept that differ (runs.CodeChanges).
func Pair(tb testing.TB, a, b string) (sides [2]compare.Side, commands string, code []runs.CodeChange) {
	tb.Helper()
	var metas [2]*runs.Meta
	for i, p := range []string{a, b} {
		an, probes, dir, meta := reportPaths(tb, p)
		sides[i] = compare.Side{Name: p, Analysis: an, Probes: probes}
		if dir != "" {
			sides[i].Metric, metas[i] = meta.Metric, &meta
		}
	}
	if metas[0] != nil && metas[1] != nil && !story.SameCommand(*metas[0], *metas[1]) {
		commands = fmt.Sprintf("A and B ran different commands (A: %s · B: %s)", runs.ShellJoin(metas[0].UserArgv), runs.ShellJoin(metas[1].UserArgv))
	}
	if metas[0] != nil && metas[1] != nil {
		code = runs.CodeChanges(*metas[0], *metas[1])
	}
	return sides, commands, code
}

// Diff is `torchtriage diff --format FORMAT --width WIDTH A B`'s output (text or json).
func Diff(tb testing.TB, format string, width int, a, b string) string {
	tb.Helper()
	sides, commands, code := Pair(tb, a, b)
	res := compare.Diff(sides[0].Analysis, sides[1].Analysis)
	res.Commands, res.Code = commands, code
	var w strings.Builder
	if format == "json" {
		if err := compare.WriteDiffJSON(&w, sides[0].Analysis.Report.Inputs, sides[1].Analysis.Report.Inputs, res); err != nil {
			tb.Fatal(err)
		}
		return w.String()
	}
	compare.WriteDiffText(&w, a, b, res, text.Options{Width: width})
	return w.String()
}

// Compare is `torchtriage compare --format FORMAT A B`'s output (text or json).
func Compare(tb testing.TB, format, a, b string) string {
	tb.Helper()
	sides, commands, code := Pair(tb, a, b)
	res := compare.Compare(sides[0], sides[1])
	res.SetCommands(commands)
	res.Findings.Code = code
	var w strings.Builder
	if format == "json" {
		if err := compare.WriteCompareJSON(&w, res); err != nil {
			tb.Fatal(err)
		}
		return w.String()
	}
	compare.WriteCompareText(&w, a, b, res)
	return w.String()
}

// LineWith is the line of s that holds sub, with the lines wrapped under it and the verdict's reasons ("  - "),
// "" when none does.
func LineWith(s, sub string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.Contains(l, sub) {
			out := l
			for _, more := range lines[i+1:] {
				if !strings.HasPrefix(more, "   ") && !strings.HasPrefix(more, "  - ") {
					break
				}
				out += " " + strings.TrimSpace(more)
			}
			return out
		}
	}
	return ""
}
