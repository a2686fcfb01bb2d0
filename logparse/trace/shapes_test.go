package trace

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// traceShapes is the KindShapeEnv records of a trace file, as shapeSig writes them.
func traceShapes(t *testing.T, glob string) []string {
	t.Helper()
	files, _ := filepath.Glob(glob)
	if len(files) != 1 {
		t.Fatalf("%s: %d files", glob, len(files))
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	err = Parse(f, logparse.Options{Input: "t", Rank: -1}, func(r *logparse.Record) {
		if r.Kind == logparse.KindShapeEnv {
			if r.Source != logparse.FromTrace || r.PID == 0 {
				t.Errorf("%s: source %v pid %d", shapeSig(r), r.Source, r.PID)
			}
			out = append(out, shapeSig(r))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A TORCH_TRACE file's create_symbol and create_unbacked_symbol events are KindShapeEnv records of the compile
// their envelope names, and each compile the file holds to its compilation_metrics is ShapesTraced (real 2.6 and
// 2.11 traces). They were not read: a trace-only input could not show a symbol.
func TestTraceSymbolsAreShapeRecords(t *testing.T) {
	fx := filepath.Join("..", "..", "testdata", "fixtures")
	got := traceShapes(t, filepath.Join(fx, "torch-2.6", "r01_branch_print.trace", "*"))
	for _, want := range []string{"0/1 create_symbol s0=8 L['x'].size()[0]", "0/1 shapes_traced =", "0/0 shapes_traced =",
		"3/0_1 create_symbol s0=8 L['y'].size()[0]"} {
		if !slices.Contains(got, want) {
			t.Errorf("2.6 r01: no %q in %q", want, got)
		}
	}
	got = traceShapes(t, filepath.Join(fx, "torch-2.11-cuda", "g16_cg_no_partition.trace", "*"))
	if !slices.Contains(got, "2/0 create_symbol zuf0=") {
		t.Errorf("2.11 g16: no unbacked zuf0 at 2/0 in %q", got)
	}
	// a trace of a torch that shows no symbol event and no version (tlparse's comp_metrics.log): not ShapesTraced
	got = traceShapes(t, filepath.Join(fx, "tlparse", "comp_metrics.log"))
	if len(got) != 0 {
		t.Errorf("tlparse comp_metrics: %q", got)
	}
}

// shapeSig is a KindShapeEnv record in a line.
func shapeSig(r *logparse.Record) string {
	s := r.Shape
	return strings.TrimSpace(fmt.Sprintf("%s %s %s=%s %s", r.CompileID, s.Event, s.Symbol, s.Value, s.Source))
}
