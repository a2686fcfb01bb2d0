package triage

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Records cut at the top or the bottom of a paste (pasted-logs.md §4), made from every fixture that has such a
// record: the count is what the text unambiguously shows, and the report says the input is partial.

// fixtureTexts returns the text fixtures of expected.json (no TORCH_TRACE files) by name.
func fixtureTexts(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, name := range ExpectedNames(LoadExpected(t)) {
		if strings.HasPrefix(name, "tlparse/") || strings.HasPrefix(name, "synthetic/synthetic_wrapped") {
			continue // a trace; a recording hard-wrapped already (the paste tests cut or wrap lines as printed)
		}
		b, err := os.ReadFile(filepath.Join(Fixtures, name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = report.SplitLines(strings.TrimSuffix(string(b), "\n"))
	}
	return out
}

func joinLines(lines []string) string { return strings.Join(lines, "\n") + "\n" }

// firstGlog is the index of the first glog line whose message starts with msg, -1 when none.
func firstGlog(lines []string, msg string) int {
	return slices.IndexFunc(lines, func(l string) bool {
		m := glogHead.FindStringSubmatch(l)
		return m != nil && strings.HasPrefix(m[4][len(tagsOf(m[4])):], msg)
	})
}

// tagsOf is the "[F/C] [__artifact] " part in front of a glog message.
func tagsOf(body string) string {
	n := 0
	for strings.HasPrefix(body[n:], "[") {
		end := strings.Index(body[n:], "] ")
		if end < 0 {
			break
		}
		n += end + 2
	}
	return body[:n]
}

// A paste that starts inside a graph-break record (after its "Graph break in user code at" line) still counts
// the break at the site its user traceback names.
func TestPasteStartsInsideGraphBreak(t *testing.T) {
	n := 0
	for name, lines := range fixtureTexts(t) {
		i := firstGlog(lines, "Graph break in user code at ")
		if i < 0 {
			continue
		}
		n++
		before, inside := ReportOfText(t, joinLines(lines[i:])), ReportOfText(t, joinLines(lines[i+1:]))
		// rank agreement is not judged on a cut input (issue 38 class 7): its finding is the one difference
		want := slices.DeleteFunc(before.Signature(siteFull), func(s string) bool { return strings.HasPrefix(s, "rank_disagreement ") })
		if !reflect.DeepEqual(inside.Counts, before.Counts) || !reflect.DeepEqual(inside.Signature(siteFull), want) {
			t.Errorf("%s: cut inside the break\n got %+v %q\nwant %+v %q", name, inside.Counts, inside.Signature(siteFull), before.Counts, want)
		}
		if !inside.report.Partial || before.report.Partial {
			t.Errorf("%s: partial %v (cut inside), %v (cut before): %q", name, inside.report.Partial, before.report.Partial, inside.report.PartialReasons)
		}
	}
	if n < 20 {
		t.Fatalf("only %d fixtures with a full graph-break record", n)
	}
}

// Guard failures without their "Recompiling function" header are not a recompile, but the report shows them
// as evidence of a cut input.
func TestPasteStartsInsideRecompile(t *testing.T) {
	n := 0
	for name, lines := range fixtureTexts(t) {
		i := firstGlog(lines, "Recompiling function ")
		if i < 0 || i+1 >= len(lines) || !strings.Contains(lines[i+1], "triggered by the following guard failure") {
			continue
		}
		n++
		before, inside := ReportOfText(t, joinLines(lines[i:])), ReportOfText(t, joinLines(lines[i+1:]))
		want := before.Counts
		want.Recompiles--
		if !reflect.DeepEqual(inside.Counts, want) {
			t.Errorf("%s: cut inside the recompile\n got %+v\nwant %+v", name, inside.Counts, want)
		}
		if !inside.report.Partial || !strings.Contains(strings.Join(inside.report.PartialReasons, ";"), "guard failures without") {
			t.Errorf("%s: partial %v %q", name, inside.report.Partial, inside.report.PartialReasons)
		}
	}
	if n < 20 {
		t.Fatalf("only %d fixtures with a recompile", n)
	}
}

// A "Recompiling function" header cut at the very end of a paste still counts as a recompile, but its function
// is not built from the cut token.
func TestPasteEndsInsideRecompileHeader(t *testing.T) {
	for name, lines := range fixtureTexts(t) {
		i := firstGlog(lines, "Recompiling function ")
		if i < 0 {
			continue
		}
		at := strings.Index(lines[i], "Recompiling function ") + len("Recompiling function ")
		whole, cut := ReportOfText(t, joinLines(lines[:i+1])), ReportOfText(t, joinLines(append(slices.Clone(lines[:i]), lines[i][:at+3])))
		if cut.Counts.Recompiles != whole.Counts.Recompiles || !cut.report.Partial {
			t.Errorf("%s: recompiles %d (cut header) want %d, partial %v", name, cut.Counts.Recompiles, whole.Counts.Recompiles, cut.report.Partial)
		}
		for _, r := range cut.report.Recompiles {
			if r.Function == lines[i][at:at+3] {
				t.Errorf("%s: function %q built from a cut header", name, r.Function)
			}
		}
	}
}

// A traceback cut after a few frames is no death, keeps the frames it has (its user frame when it has one), and
// makes the report partial.
func TestPasteEndsInsideTraceback(t *testing.T) {
	n := 0
	for name, lines := range fixtureTexts(t) {
		for _, b := range tracebacks(lines) {
			if b.prefix != "" || b.exc[0]-b.start < 5 {
				continue
			}
			n++
			got := ReportOfText(t, joinLines(lines[b.start:b.start+3]))
			frame, _ := parseFrame(lines[b.start+1])
			if logparse.IsLibraryFile(frame.File) { // not a user frame: none to show
				frame = logparse.Frame{}
			}
			if got.Counts.CompileErrors+got.Counts.RuntimeErrors != 0 || !got.report.Partial {
				t.Errorf("%s: cut traceback counted %+v, partial %v", name, got.Counts, got.report.Partial)
			}
			if ex := got.report.Exceptions; len(ex) != 1 || ex[0].File != frame.File || ex[0].Line != frame.Line {
				t.Errorf("%s: cut traceback %+v, want frame %s:%d", name, ex, frame.File, frame.Line)
			}
			break
		}
	}
	if n < 5 {
		t.Fatalf("only %d fixtures with a traceback", n)
	}
}

// The end of a crash pasted from its last exception line on is the one death the whole log shows.
func TestPasteFromLastExceptionLine(t *testing.T) {
	exp := LoadExpected(t)
	n := 0
	for name, lines := range fixtureTexts(t) {
		want := exp[name]
		tbs := tracebacks(lines)
		if want.CompileErrors+want.RuntimeErrors != 1 || len(tbs) != 1 || tbs[0].prefix != "" {
			continue
		}
		n++
		b := tbs[0]
		got := ReportOfText(t, joinLines(lines[b.exc[len(b.exc)-1]:b.end]))
		if got.Counts.CompileErrors != want.CompileErrors || got.Counts.RuntimeErrors != want.RuntimeErrors || !got.report.Partial {
			t.Errorf("%s: %+v partial %v, want %d compile / %d runtime errors", name, got.Counts, got.report.Partial, want.CompileErrors, want.RuntimeErrors)
		}
	}
	if n < 10 {
		t.Fatalf("only %d fixtures with one death", n)
	}
}
