package triage_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// flatText joins wrapped lines back into one: the text writer breaks lines only at spaces, so a phrase that was
// printed whole is found in it whatever the width.
func flatText(s string) string { return strings.Join(strings.Fields(s), " ") }

func reportText(t *testing.T, a *triage.Analysis, width int) string {
	t.Helper()
	var b strings.Builder
	if err := render.WriteReport(&b, a, "text", text.Options{Width: width}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// NCCL says what went wrong after "Last error:", not in the exception's first line: the text report, the first
// failure (which `check` prints) and the finding's title lead with it, and the first line is not cut mid-word.
func TestErrorTextShowsTheDecisiveLine(t *testing.T) {
	a := analyzeRun(t, Fx("torch-2.11-cuda/g09a_nccl_same_gpu.triage.log"), nil)
	const why = "Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 60"
	if !strings.Contains(a.Verdict.FirstFailure, why) {
		t.Errorf("first failure does not say why: %q", a.Verdict.FirstFailure)
	}
	if len(a.Findings) == 0 || !strings.HasPrefix(a.Findings[0].Title, "DistBackendError: Duplicate GPU detected : rank") {
		t.Errorf("the finding's title does not lead with NCCL's reason: %+v", a.Findings)
	}
	for _, w := range []int{80, 120} {
		out := reportText(t, a, w)
		flat := flatText(out)
		for _, want := range []string{"First failure: rank 1 failed first (torchrun's root cause): torch.distributed.DistBackendError: " + why,
			"(run with NCCL_DEBUG=WARN for details), NCCL version 2.28.9", why} {
			if !strings.Contains(flat, want) {
				t.Errorf("at %d columns the report lacks %q:\n%s", w, want, out)
			}
		}
		if strings.Contains(out, "…") {
			t.Errorf("at %d columns the report cuts evidence:\n%s", w, out)
		}
	}
}

// The decisive line of other messages: the inner error of a backend failure, Triton's reason under its caret.
func TestErrorGist(t *testing.T) {
	for msg, want := range map[string]string{
		"backend='inductor' raised:\nCppCompileError: C++ compile error":                                                       "CppCompileError: C++ compile error",
		"CompilationError: at 3:25:\ndef k(x):\noffs = tl.arange(0, 48)\n^\narange's range must be a power of 2":               "CompilationError: at 3:25: arange's range must be a power of 2",
		"NCCL error in: a.cpp:1, unhandled system error, NCCL version 2.1\nncclSystemError: x.\nLast error:\nsocket timed out": "socket timed out",
		"CUDA out of memory. Tried to allocate 200.00 GiB.":                                                                    "CUDA out of memory. Tried to allocate 200.00 GiB.",
		"Last error:\n": "Last error:",
	} {
		if got := report.ErrorGist(msg); got != want {
			t.Errorf("errorGist(%q) = %q, want %q", msg, got, want)
		}
	}
}

// OneLine cuts at a word, never inside one.
func TestOneLineCutsAtAWord(t *testing.T) {
	got := text.OneLine("function 0 exceeding max re-recording limit (=3) on cudagraph node None due to static input data pointer changed.", 100)
	if got != "function 0 exceeding max re-recording limit (=3) on cudagraph node None due to static input data…" {
		t.Errorf("got %q", got)
	}
	if got := text.OneLine(strings.Repeat("x", 50), 10); got != strings.Repeat("x", 9)+"…" { // one word: cut where it must be
		t.Errorf("one long word: %q", got)
	}
}

// Fixtures of a real GPU run: the text report cuts no word at 80 or 120 columns (a "…" follows a whole word of
// the log, or a sentence, or is a bounded list's "… N more" or a hex address blanked as "0x…"), every playbook id
// is whole, and no line is wider than asked.
func TestTextReportCutsNoEvidence(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(triage.Fixtures, "torch-2.11-cuda", "*.log"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	allowed := regexp.MustCompile(`… \d+ more|0x…`)
	cuts := regexp.MustCompile(`(\S*)…`)
	ids := regexp.MustCompile(`\[[a-z0-9]+(-[a-z0-9]+)*\]`)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a := analyzeRun(t, f, nil)
		for _, w := range []int{80, 120} {
			out := reportText(t, a, w)
			for _, m := range cuts.FindAllStringSubmatch(allowed.ReplaceAllString(out, ""), -1) {
				word := strings.TrimLeft(m[1], "([`'\"")
				if word != "" && !regexp.MustCompile(regexp.QuoteMeta(word)+`([^\w]|$)`).Match(raw) {
					t.Errorf("%s at %d columns: cut inside a word: %q\n%s", filepath.Base(f), w, m[0], out)
				}
			}
			if widest(out) > w {
				t.Errorf("%s at %d columns: a line is %d wide", filepath.Base(f), w, widest(out))
			}
			flat := flatText(out)
			for _, fd := range a.Findings {
				if fd.Playbook != "" && !strings.Contains(flat, "playbook "+fd.Playbook) {
					t.Errorf("%s at %d: playbook %s not whole:\n%s", filepath.Base(f), w, fd.Playbook, out)
				}
			}
			for _, r := range a.Verdict.Reasons {
				for _, id := range ids.FindAllString(r, -1) {
					if !strings.Contains(flat, id) {
						t.Errorf("%s at %d: %s of a reason not whole:\n%s", filepath.Base(f), w, id, out)
					}
				}
			}
		}
	}
}

// Markdown counts what the text report counts: g09a's two dying ranks are "runtime errors 2" there, and were in no
// column of the Markdown table.
func TestMarkdownCountsRuntimeErrors(t *testing.T) {
	a := analyzeRun(t, Fx("torch-2.11-cuda/g09a_nccl_same_gpu.triage.log"), nil)
	var b strings.Builder
	render.WriteMarkdown(&b, a)
	md := b.String()
	if !strings.Contains(md, "| graph breaks | recompiles | limit hits | CUDA-graph skips | compile errors | runtime errors |") ||
		!strings.Contains(md, "| unknown (no sign graph_breaks was on) | unknown (no sign recompiles was on) | ≥0 | unknown | ≥0 | ≥2 |") { // nothing in the log shows which TORCH_LOGS were on; two processes died: counts of a run cut short are floors
		t.Errorf("the Markdown table does not count the runtime errors:\n%s", md)
	}
}

// widest is the widest line of s, in terminal cells.
func widest(s string) int {
	w := 0
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}
