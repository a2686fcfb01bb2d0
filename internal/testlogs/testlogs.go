package testlogs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// TwoRankItemLog writes, under tb's temp dir, a real 2.14 log of a run without TORCH_LOGS
// (torch-2.14/gb_recompile.no_torch_logs.log under fixtures) as two ranks print it: rank 0 all of it, its
// Tensor.item() graph-break warning included (it prints whatever TORCH_LOGS says), rank 1 its recompile-limit hit
// only. It returns the file's path.
func TwoRankItemLog(tb testing.TB, fixtures string) string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, "torch-2.14", "gb_recompile.no_torch_logs.log"))
	if err != nil {
		tb.Fatal(err)
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if l == "" {
			continue
		}
		b.WriteString("[rank0]:" + l)
		if strings.Contains(l, "convert_frame.py") {
			b.WriteString("[rank1]:" + l)
		}
	}
	path := filepath.Join(tb.TempDir(), "two.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// LinesWith writes, under tb's temp dir, the lines of the log at src that contain keep (a real log with only one
// of its logs kept: "[__recompiles]" leaves a run's recompiles without its dynamic log). It returns the path.
func LinesWith(tb testing.TB, src, keep string) string {
	tb.Helper()
	return keptLines(tb, src, "lines-with.log", func(l string) bool { return strings.Contains(l, keep) })
}

// LinesWithout writes, under tb's temp dir, the lines of the log at src that do not start with prefix (a real
// 2-rank log without "[rank1]" is one rank's stderr). It returns the path.
func LinesWithout(tb testing.TB, src, prefix string) string {
	tb.Helper()
	return keptLines(tb, src, "lines-without.log", func(l string) bool { return !strings.HasPrefix(l, prefix) })
}

// keptLines writes the lines of src that keep keeps to name under tb's temp dir and returns the path.
func keptLines(tb testing.TB, src, name string, keep func(line string) bool) string {
	tb.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	var kept []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if keep(l) {
			kept = append(kept, l)
		}
	}
	path := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(path, []byte(strings.Join(kept, "")), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// Path is the path of elem under the module's top-level testdata/ (the one copy of the fixtures and recordings
// that every package's tests read), relative to the working directory: go test runs a package's tests in its
// directory, so from tui it is ../testdata/elem. The module root is the nearest directory above with a go.mod,
// so a package names its fixtures alike however deep it lies.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		if root == filepath.Dir(root) {
			tb.Fatalf("no go.mod in %s or above: no module testdata/ to read", wd)
		}
		root = filepath.Dir(root)
	}
	rel, err := filepath.Rel(wd, filepath.Join(append([]string{root, "testdata"}, elem...)...))
	if err != nil {
		tb.Fatal(err)
	}
	return rel
}

// SynthRecompile is a recompile record of fn at /w/train.py whose guard failed on compile compile-1 of frame.
func SynthRecompile(rank, frame, compile int, fn, guard string, line int) *logparse.Record {
	return &logparse.Record{Kind: logparse.KindRecompile, Rank: rank, PID: 5000 + rank, Input: "synthetic.log", FirstLine: line,
		CompileID: logparse.CompileID{Autograd: -1, Frame: frame, Compile: compile},
		Recompile: &logparse.Recompile{Function: fn, File: "/w/train.py", Line: 6,
			Failures: []logparse.GuardFailure{{CompileID: fmt.Sprintf("%d/%d", frame, compile-1), Guard: guard}}}}
}

// SynthBreak is a graph break record (print, a full break) at /w/train.py line site, of frame/compile on rank.
func SynthBreak(rank, frame, compile, site, line int) *logparse.Record {
	fr := logparse.Frame{File: "/w/train.py", Line: site, Func: "step", Code: `print("debug")`}
	return &logparse.Record{Kind: logparse.KindGraphBreak, Rank: rank, PID: 5000 + rank, Input: "synthetic.log", FirstLine: line,
		CompileID: logparse.CompileID{Autograd: -1, Frame: frame, Compile: compile},
		Break: &logparse.GraphBreak{Variant: logparse.BreakFull, File: "/w/train.py", Line: site,
			Reason: "Unsupported: builtin: print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False",
			Frames: []logparse.Frame{fr}, UserFrame: fr}}
}
