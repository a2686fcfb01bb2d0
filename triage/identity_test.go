package triage_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// shiftLines rewrites a captured log as if a comment had been added above line `from` of script: every
// `script", line N` and `script:N` with N ≥ from, and Dynamo's resume function names, move down one line.
func shiftLines(t *testing.T, log []byte, script string, from int) []byte {
	t.Helper()
	site := regexp.MustCompile(regexp.QuoteMeta(script) + `(", line |:)(\d+)`)
	resume := regexp.MustCompile(`(torch_dynamo_resume_in_\w+?_at_)(\d+)`)
	bump := func(re *regexp.Regexp) func([]byte) []byte {
		return func(m []byte) []byte {
			sub := re.FindSubmatch(m)
			n, _ := strconv.Atoi(string(sub[len(sub)-1]))
			if n >= from {
				n++
			}
			return []byte(string(m[:len(m)-len(sub[len(sub)-1])]) + strconv.Itoa(n))
		}
	}
	out := site.ReplaceAllFunc(log, bump(site))
	out = resume.ReplaceAllFunc(out, bump(resume))
	if bytes.Equal(out, log) {
		t.Fatalf("nothing of %s at line ≥ %d to shift", script, from)
	}
	return out
}

func analyzeBytes(t *testing.T, data []byte) *triage.Analysis {
	t.Helper()
	l, err := report.Load([]string{"-"}, report.LoadOptions{Stdin: bytes.NewReader(data)})
	if err != nil {
		t.Fatal(err)
	}
	set, err := playbooks.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return triage.Analyze(l.Report, set, nil)
}

// A comment added above a graph break moves it: diff says "moved from :10 to :11" (not new + gone) and the
// gate's baseline still knows it.
func TestBreakMovedByACommentIsTheSameBreak(t *testing.T) {
	for _, tc := range []struct{ fixture, script string }{
		{"torch-2.14/r05_dist_c10d.triage.log", "r05_dist_c10d.py"},
		{"torch-2.14/gb_recompile.triage.log", "gb_recompile.py"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			orig, err := os.ReadFile(Fx(tc.fixture))
			if err != nil {
				t.Fatal(err)
			}
			before := analyzeBytes(t, orig)
			after := analyzeBytes(t, shiftLines(t, orig, tc.script, 10))
			d := compare.Diff(before, after)
			if d.New != 0 || d.Gone != 0 || d.Moved == 0 {
				t.Fatalf("diff: %d new, %d gone, %d moved: %+v", d.New, d.Gone, d.Moved, d.Items)
			}
			var txt bytes.Buffer
			compare.WriteDiffText(&txt, "A", "B", d, text.Options{Width: 200})
			if !strings.Contains(txt.String(), " moved from "+tc.script+":") {
				t.Errorf("diff text shows no move:\n%s", txt.String())
			}
			res := gate.Check(after, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: gate.NewBaseline(before)})
			if !res.Passed || len(res.Improved) != 0 {
				t.Errorf("check --baseline after a comment: %+v", res)
			}
		})
	}
	orig, _ := os.ReadFile(Fx("torch-2.14/r05_dist_c10d.triage.log"))
	d := compare.Diff(analyzeBytes(t, orig), analyzeBytes(t, shiftLines(t, orig, "r05_dist_c10d.py", 10)))
	var txt bytes.Buffer
	compare.WriteDiffText(&txt, "A", "B", d, text.Options{Width: 200})
	if want := "~ graph break print() moved from r05_dist_c10d.py:10 to r05_dist_c10d.py:11"; !strings.Contains(txt.String(), want) {
		t.Errorf("want %q in\n%s", want, txt.String())
	}
}

// Another break of the same kind in the same function, on another source line, is new.
func TestBreakOnAnotherSourceLineIsNew(t *testing.T) {
	orig, _ := os.ReadFile(Fx("torch-2.14/r05_dist_c10d.triage.log"))
	changed := bytes.ReplaceAll(orig, []byte(`print("rank0 debug")`), []byte(`print("rank0 step done")`))
	changed = shiftLines(t, changed, "r05_dist_c10d.py", 10)
	before, after := analyzeBytes(t, orig), analyzeBytes(t, changed)
	if d := compare.Diff(before, after); d.New != 1 || d.Gone != 1 {
		t.Errorf("diff: %+v", d)
	}
	if res := gate.Check(after, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: gate.NewBaseline(before)}); res.Passed {
		t.Errorf("a break on another source line passed the baseline: %+v", res)
	}
}

// A baseline written by an older torchtriage (schema v1: breaks keyed by line; testdata/baseline was written by
// `check --write-baseline` before break identities) is still read and matched by those keys.
func TestBaselineV1StillGates(t *testing.T) {
	read, err := gate.ReadBaseline(filepath.Join("testdata", "baseline", "r05_dist_c10d.v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	a := triage.AnalyzeFiles(t, "torch-2.14/r05_dist_c10d.triage.log")
	if res := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: read}); !res.Passed || len(res.Improved) != 0 {
		t.Errorf("v1 baseline against the same run: %+v", res)
	}
	q := triage.AnalyzeFiles(t, "torch-2.14/r01_branch_print.triage.log")
	if res := gate.Check(q, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: read}); res.Passed || len(res.Improved) != 2 {
		t.Errorf("v1 baseline against another run: %+v", res)
	}
	path := filepath.Join(t.TempDir(), "base.json")
	if err := gate.WriteBaseline(path, gate.NewBaseline(a)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	var b struct{ Schema string }
	if err := json.Unmarshal(data, &b); err != nil || b.Schema != gate.BaselineSchema || !strings.Contains(string(data), `print(\"rank0 debug\")`) {
		t.Errorf("written baseline: %s", data)
	}
}
