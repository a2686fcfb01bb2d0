package triage

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// pasted is what a report of pasted text gives: the counts of expected.json and the findings.
type pasted struct {
	Counts   expectedCounts
	findings []findings.Finding
	report   *report.Report
}

// site modes: how much of a finding's site a transformation keeps
const (
	siteFull = iota // file and line
	siteLine        // the line (IPython names the notebook cell "Cell In[4]")
	SiteNone        // none (the frames were not pasted)
)

// signature lists kind, playbook, site, records and ranks of every finding.
func (p pasted) Signature(mode int) []string {
	var out []string
	for _, f := range p.findings {
		site := fmt.Sprintf("%s:%d", f.File, f.Line)
		switch mode {
		case siteLine:
			site = fmt.Sprintf(":%d", f.Line)
		case SiteNone:
			site = ""
		}
		out = append(out, fmt.Sprintf("%s %s %s %d %v", f.Kind, f.Playbook, site, f.Records, f.Ranks))
	}
	slices.Sort(out)
	return out
}

func ReportOfText(t testing.TB, text string) pasted {
	t.Helper()
	l, err := report.Load([]string{"-"}, report.LoadOptions{Stdin: strings.NewReader(text)})
	if err != nil {
		t.Fatal(err)
	}
	set, err := playbooks.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	rep := l.Report
	c := rep.Counts
	out := pasted{report: rep, Counts: expectedCounts{GraphBreaks: c.GraphBreaks, Recompiles: c.Recompiles,
		RecompileLimitHits: c.RecompileLimitHits, CudagraphSkips: c.CudagraphSkips, CompileErrors: c.CompileErrors,
		CudagraphPartitions: c.CudagraphPartitions, CudagraphRerecords: c.CudagraphRerecords,
		RuntimeErrors: c.RuntimeErrors, Ranks: rep.Ranks}}
	out.findings = Analyze(rep, set, nil).Findings
	return out
}

// pasteCase is one way of pasting a fixture; applies says which fixtures have records of the kind it touches.
type pasteCase struct {
	name    string
	f       transform
	applies func(text string, want expectedCounts) bool
	sites   int
}

func always(string, expectedCounts) bool { return true }

func hasRanks(_ string, want expectedCounts) bool { return len(want.Ranks) > 0 }

// programOutput: the fixture is not itself a paste indented as a code block (every line; synthetic_codeblock_*).
// A log shipper prefixes what the program printed: an indented line behind its prefix is the program's own text.
func programOutput(text string, _ expectedCounts) bool {
	return slices.ContainsFunc(report.SplitLines(text), func(l string) bool {
		return strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "\t")
	})
}

func hasGlog(text string, _ expectedCounts) bool {
	return slices.ContainsFunc(report.SplitLines(text), glogHead.MatchString)
}

// glogAtStart: the fixture has glog heads, every one at the start of its line. The transformations that cut a
// glog head find it there; a head glued behind output (synthetic_glued) would be left whole beside its cut
// continuation lines, which no paste does.
func glogAtStart(text string, want expectedCounts) bool {
	return hasGlog(text, want) && !gluedHead.MatchString(text)
}

func hasTraceback(text string, _ expectedCounts) bool {
	return len(tracebacks(report.SplitLines(text))) > 0
}

func hasBareTraceback(text string, _ expectedCounts) bool {
	return slices.ContainsFunc(tracebacks(report.SplitLines(text)), func(b tbBlock) bool { return b.prefix == "" })
}

var pasteCases = []pasteCase{
	{"quote", eachLine("> "), always, siteFull},
	// `report -` reads a paste to its end whatever its line ends: Windows' CRLF, and a terminal that turned each
	// CRLF into two newlines (a blank line after every line) (issue 38 "also")
	{"crlf", func(lines []string) []string { return lines2(lines, "\r") }, always, siteFull},
	{"blank_lines", func(lines []string) []string { return lines2(lines, "\n") }, always, siteFull},
	{"quote2", eachLine(">> "), always, siteFull},
	{"indent", eachLine("    "), always, siteFull},
	{"tab", eachLine("\t"), always, siteFull},
	{"shipper_cri", shipper, programOutput, siteFull},
	{"kubectl", eachLine("[pod/trainer-0/main] "), programOutput, siteFull},
	{"compose", eachLine("trainer-1  | "), programOutput, siteFull},
	{"bullets", onPrefixed(func(l string) string { return "- " + l }), hasGlog, siteFull},
	{"hostname", onPrefixed(func(l string) string { return "node-7.cluster " + l }), hasRanks, siteFull},
	{"double_rank", doubleRank, hasRanks, siteFull},
	{"elided_emitter", elideEmitter, glogAtStart, siteFull},
	{"no_glog_head", dropGlogHead, glogAtStart, siteFull},
	{"headless_traceback", headless, hasTraceback, SiteNone},
	{"ipython", ipython, hasBareTraceback, siteLine},
	{"pytest", pytest, hasBareTraceback, siteFull},
}

// TestPastedFixtures runs every transformation over every text fixture it applies to: the pasted text gives the
// counts and findings of the untouched fixture.
func TestPastedFixtures(t *testing.T) {
	exp := LoadExpected(t)
	for name, lines := range fixtureTexts(t) {
		text := joinLines(lines)
		want := ReportOfText(t, text)
		for _, c := range pasteCases {
			if !c.applies(text, exp[name]) {
				continue
			}
			t.Run("synthetic_paste_"+c.name+"/"+name, func(t *testing.T) {
				got := ReportOfText(t, joinLines(c.f(lines)))
				if !reflect.DeepEqual(got.Counts, want.Counts) {
					t.Errorf("counts\n got %+v\nwant %+v", got.Counts, want.Counts)
				}
				if g, w := got.Signature(c.sites), want.Signature(c.sites); !reflect.DeepEqual(g, w) {
					t.Errorf("findings\n got %q\nwant %q", g, w)
				}
			})
		}
	}
}

// lines2 is lines with end appended to each (a CRLF's '\r', or a newline: an empty line after each).
func lines2(lines []string, end string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l + end
	}
	return out
}
