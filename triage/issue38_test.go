package triage

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
)

// Issue 38, class 4: a file of torch's C++ frames and nothing else (the stack trace of a c10 exception, pasted
// without its terminate and what() lines) shows torch ran: never "no torch output".
func TestCppTorchFramesAreTorchOutput(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(Fixtures, "synthetic", "synthetic_nccl_watchdog_what.log"))
	if err != nil {
		t.Fatal(err)
	}
	var frames []string
	for l := range strings.Lines(string(b)) {
		if strings.HasPrefix(l, "frame #") {
			frames = append(frames, l)
		}
	}
	if len(frames) == 0 {
		t.Fatal("no frames in the fixture")
	}
	ev := ReportOfText(t, strings.Join(frames, "")).report.Evidence
	if !ev.TorchSeen || !slices.Contains(ev.TorchSeenBy, "a traceback through torch") {
		t.Errorf("torch seen %v by %v", ev.TorchSeen, ev.TorchSeenBy)
	}
}

// Issue 38, class 6: guard failures glued behind a tqdm bar (its "\r 10%|█ | 2/20 [00:01<00:04,  2.50it/s]" and
// no newline before the next log line) stay the failures of their `Recompiling function` header, whether the
// glog heads are whole or the reporter cut them at the compile id: each recompile has the failures of the
// recording it was made from.
func TestGuardFailuresGluedBehindProgressBar(t *testing.T) {
	want := recompileFailures(t, filepath.Join(Fixtures, "torch-2.14", "r01_branch_print.triage.log"))
	if len(want) == 0 {
		t.Fatal("the recording has no guard failures")
	}
	for _, name := range []string{"synthetic_tqdm_glued.torch-2.14.log", "synthetic_tqdm_glued_cut.torch-2.14.log"} {
		got := recompileFailures(t, filepath.Join(Fixtures, "synthetic", name))
		if !slices.Equal(got, want) {
			t.Errorf("%s: failures\n got %q\nwant %q", name, got, want)
		}
	}
}

func recompileFailures(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range ReportOfText(t, string(b)).report.Recompiles {
		if len(r.Failures) == 0 {
			out = append(out, r.Function+": none")
		}
		for _, f := range r.Failures {
			out = append(out, r.Function+": "+f.CompileID+": "+f.Guard)
		}
	}
	slices.Sort(out)
	return out
}

// Issue 38, class 8: a graph break pasted without its header and without a user frame (its reason, explanation,
// hints and debug context only) is one break of unknown site, with the partial-input caveat, and its finding says
// the site was cut; a fragment whose gb_type or reason a break with a site in the input has is that break's, not
// another one.
func TestFragmentWithoutUserFrame(t *testing.T) {
	p := ReportOfText(t, readFile(t, filepath.Join(Fixtures, "synthetic", "synthetic_fragment.torch-2.14.log")))
	if p.Counts.GraphBreaks != 2 || !p.report.Partial {
		t.Fatalf("2.14 fragment: %d breaks, partial %v", p.Counts.GraphBreaks, p.report.Partial)
	}
	var titles []string
	for _, f := range p.findings {
		if f.Kind == findings.KindGraphBreak && f.File == "" {
			titles = append(titles, f.Title)
			if !strings.HasPrefix(f.Detail, "Break site: not known (cut from the input") {
				t.Errorf("detail %q", f.Detail)
			}
		}
	}
	if len(titles) != 1 || !strings.Contains(titles[0], "where: cut from the input") {
		t.Errorf("site-less break titles %q", titles)
	}
	// 2.6: "Reason: Data-dependent jump" without its header, then the recording's duplicate record of that break
	// at r01_branch_print.py:4: the recording's 2 breaks, not 3
	p = ReportOfText(t, readFile(t, filepath.Join(Fixtures, "synthetic", "synthetic_fragment.torch-2.6.log")))
	if p.Counts.GraphBreaks != 2 {
		t.Errorf("2.6 fragment of a break with a site: %d breaks", p.Counts.GraphBreaks)
	}
	for _, b := range p.report.GraphBreaks {
		if b.File == "" {
			t.Errorf("a site-less break beside its sited twin: %+v", b.Key)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Issue 38, class 7: an excerpt cut inside a record (here rank 1's `Recompiling function` header and rank 0's first
// break were not pasted) leaves rank agreement "not judged: the input is cut (…)": what the cut removed from one
// rank is no HIGH "ranks compile differently", and no verdict of ranks that disagree.
func TestCutExcerptRanksNotJudged(t *testing.T) {
	path := filepath.Join(Fixtures, "synthetic", "synthetic_cut_ranks.torch-2.14.log")
	p := ReportOfText(t, readFile(t, path))
	if !p.report.Partial || len(p.report.Ranks) != 2 {
		t.Fatalf("partial %v, ranks %v", p.report.Partial, p.report.Ranks)
	}
	for _, f := range p.findings {
		if f.Kind == findings.KindRankDisagreement {
			t.Errorf("finding %s %q on a cut input", f.Severity, f.Title)
		}
	}
	set, err := playbooks.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	a := Analyze(p.report, set, nil)
	ra := a.RankAgreement
	want := "not judged: the input is cut (guard failures without their `Recompiling function` header)"
	if ra.Disagree() || ra.Agree || !strings.HasPrefix(ra.Summary, want) {
		t.Errorf("rank agreement %+v", ra)
	}
	if strings.Contains(a.Verdict.Summary, "ranks disagree") {
		t.Errorf("verdict %q", a.Verdict.Summary)
	}
}

// Issue 38, class 6b: a paste hard-wrapped by its reporter (every line longer than W columns broken into pieces of
// exactly W, as `fold -w W` and a terminal's rows do) counts as the recording it was made from: every text fixture
// of expected.json wrapped at 80, 100 and 120 columns reads as the fixture itself, both pasted (`report -`).
func TestHardWrappedPastesCountAsRecorded(t *testing.T) {
	n := 0
	for name, lines := range fixtureTexts(t) {
		want := ReportOfText(t, joinLines(lines))
		for _, w := range []int{80, 100, 120} {
			wrapped, pieces, exact := foldLines(lines, w)
			if pieces < 3 || pieces*10 < strings.Count(wrapped, "\n") || exact {
				// too few pieces to tell a wrap by (the reader reads the text as printed), or a line of exactly
				// k×w columns, whose last piece no reader can tell from a wrapped one (docs/inputs.md)
				continue
			}
			n++
			got := ReportOfText(t, wrapped)
			if !reflect.DeepEqual(got.Counts, want.Counts) || !reflect.DeepEqual(got.Signature(siteFull), want.Signature(siteFull)) {
				t.Errorf("%s wrapped at %d:\n got %+v %q\nwant %+v %q", name, w, got.Counts, got.Signature(siteFull), want.Counts, want.Signature(siteFull))
			}
		}
	}
	t.Logf("%d wrapped fixtures", n)
	if n < 300 {
		t.Fatalf("only %d wrapped fixtures", n)
	}
}

// foldLines is `fold -w w` of lines (each broken into pieces of w runes), how many pieces of w runes it made, and
// whether a line was exactly k×w runes long.
func foldLines(lines []string, w int) (string, int, bool) {
	var b strings.Builder
	pieces, exact := 0, false
	for _, l := range lines {
		r := []rune(l)
		pieces += len(r) / w
		exact = exact || len(r) > 0 && len(r)%w == 0
		for len(r) > w {
			b.WriteString(string(r[:w]))
			b.WriteByte('\n')
			r = r[w:]
		}
		b.WriteString(string(r))
		b.WriteByte('\n')
	}
	return b.String(), pieces, exact
}

// Issue 38, class 5: one TORCH_TRACE line pasted (rank 0's first compilation_metrics of a real 2-rank trace) is a
// trace whose envelope's "rank": 0 is read, as printed, without its glog head, quoted or indented.
func TestPastedTraceLineRank(t *testing.T) {
	var line string
	for l := range strings.Lines(readFile(t, filepath.Join(Fixtures, "torch-2.14", "r05_dist_c10d.trace", "dedicated_log_torch_trace_rank_0_i23m754j.log"))) {
		if strings.Contains(l, `{"compilation_metrics": `) {
			line = l
			break
		}
	}
	if line == "" {
		t.Fatal("no compilation_metrics line")
	}
	bare := line[strings.IndexByte(line, '{'):]
	for name, text := range map[string]string{"as printed": line, "without its glog head": bare, "quoted": "> " + line, "indented": "    " + line} {
		if got := ReportOfText(t, text).report.Ranks; !slices.Equal(got, []int{0}) {
			t.Errorf("%s: ranks %v", name, got)
		}
	}
}

// Issue 38, class 4 against testdata/dist-hangs' ground truth: every log there counts as its expected.json says.
// One rule for std::terminate's "terminate called after throwing an instance of '…'" + "what():" of torch's C++
// libraries (c10, c10d and the gloo it bundles): the process died of it, a runtime error, so
// h02b_mismatch_shapes.plain (rank 0 aborts on gloo::EnforceNotMet, rank 1 loses its peer) counts 2.
func TestDistHangsCounts(t *testing.T) {
	b, err := os.ReadFile("../testdata/dist-hangs/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]expectedCounts
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	n := 0
	for name, want := range all {
		if !strings.HasSuffix(name, ".log") || strings.HasPrefix(name, "runs/") {
			continue
		}
		n++
		if want.Ranks == nil {
			want.Ranks = []int{}
		}
		if got := countsOf(t, filepath.Join("../testdata/dist-hangs", name)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
		}
	}
	if n < 30 {
		t.Errorf("only %d logs", n)
	}
}
