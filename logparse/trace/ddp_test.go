package trace

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// ddpTraceRun is a run of testdata/recorded/ddp-optimizer stored with its TORCH_TRACE (preset distributed: the
// ddp_graphs log and a trace per rank, real 2.14.1 and 2.6 on two gloo ranks), and the compile DDPOptimizer split.
var ddpTraceRuns = []struct{ dir, cid string }{{"trace-214", "4/0"}, {"trace-26", "1/0"}}

func ddpTraceFiles(t *testing.T, dir string) []string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "recorded", "ddp-optimizer", dir, "trace", "*.log"))
	if len(paths) != 2 {
		t.Fatalf("%s: trace files %v", dir, paths)
	}
	return paths
}

// TORCH_TRACE writes DDPOptimizer's split as an optimize_ddp_split_graph artifact (the split graph's readable
// code, calling self.submod_0 …) and an optimize_ddp_split_child one a submodule ({"name": "submod_0"}), with the
// compile id of the graph split. They are the same KindDDPGraph record as the ddp_graphs log's split message, with
// the rank, process and compile id of that message (so a report of trace and text counts it once). Before, the
// trace showed no split.
func TestTraceDDPSplitRecord(t *testing.T) {
	for _, c := range ddpTraceRuns {
		for rank, path := range ddpTraceFiles(t, c.dir) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			var got []*logparse.Record
			err = Parse(f, logparse.Options{Rank: -1}, func(r *logparse.Record) {
				if r.Kind == logparse.KindDDPGraph {
					got = append(got, r)
				}
			})
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("%s: %d KindDDPGraph records, want 1", path, len(got))
			}
			r := got[0]
			want := fmt.Sprintf("r%d %s split submod_0,submod_1,submod_2 calls=submod_0,submod_1,submod_2 "+
				"complete=true counted=true", rank, c.cid)
			if s := ddpSig(r); s != want || r.Source != logparse.FromTrace {
				t.Errorf("%s: %s (source %v), want %s", path, s, r.Source, want)
			}
			text := ddpTextSplit(t, c.dir, rank)
			if text == nil {
				t.Fatalf("%s: no split message of rank %d in the text log", c.dir, rank)
			}
			if r.PID != text.PID || r.CompileID != text.CompileID || r.Rank != text.Rank ||
				!reflect.DeepEqual(r.DDP, text.DDP) {
				t.Errorf("%s: trace's split %d %v r%d %+v, the text's %d %v r%d %+v", path, r.PID, r.CompileID,
					r.Rank, *r.DDP, text.PID, text.CompileID, text.Rank, *text.DDP)
			}
		}
	}
}

// ddpTextSplit is the split message of a rank in the text log of the same run.
func ddpTextSplit(t *testing.T, dir string, rank int) *logparse.Record {
	recs, _ := parseFile(t, filepath.Join("..", "..", "testdata", "recorded", "ddp-optimizer", dir, "stderr.log"),
		logparse.Options{Rank: -1})
	for _, r := range recs {
		if r.Kind == logparse.KindDDPGraph && r.Rank == rank && r.DDP.Stage == logparse.DDPSplit {
			return r
		}
	}
	return nil
}

// A trace cut inside the split (the real 2.14.1 trace of rank 0 up to a line) gives the split as far as it is
// read, and no count of its submodules: cut in the split graph's code, its forward is not read to its return
// line; cut between the children, they are not all the submodules its graph calls.
func TestTraceDDPSplitCut(t *testing.T) {
	data, err := os.ReadFile(ddpTraceFiles(t, "trace-214")[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ upTo, want string }{
		{"submod_1 = self.submod_1(", "r0 4/0 split  calls=submod_0,submod_1 complete=false counted=false"},
		{`{"optimize_ddp_split_child": {"name": "submod_1"}`,
			"r0 4/0 split submod_0 calls=submod_0,submod_1,submod_2 complete=true counted=false"},
	} {
		var keep []string
		for _, l := range strings.SplitAfter(string(data), "\n") {
			if strings.Contains(l, c.upTo) {
				if strings.HasPrefix(l, "\t") {
					keep = append(keep, l) // a line of the payload: the cut is after it
				}
				break
			}
			keep = append(keep, l)
		}
		var got []string
		err := Parse(strings.NewReader(strings.Join(keep, "")), logparse.Options{Rank: -1}, func(r *logparse.Record) {
			if r.Kind == logparse.KindDDPGraph {
				got = append(got, ddpSig(r))
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("cut at %q: %q, want [%q]", c.upTo, got, c.want)
		}
	}
}

// ddpSig is a KindDDPGraph record in a line: rank, compile id, stage, what it names, whether it is whole.
func ddpSig(r *logparse.Record) string {
	g := r.DDP
	return fmt.Sprintf("r%d %s %v %s calls=%s complete=%v counted=%v", r.Rank, r.CompileID, g.Stage,
		strings.Join(g.Submodules, ","), strings.Join(g.Calls, ","), g.Complete, r.SplitCounted())
}

// parseFile is the text parser's records and facts of a file.
func parseFile(t *testing.T, path string, opt logparse.Options) ([]*logparse.Record, logparse.Facts) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []*logparse.Record
	var facts logparse.Facts
	opt.OnFacts = func(f logparse.Facts) { facts = f }
	if err := logparse.Parse(f, opt, func(r *logparse.Record) { recs = append(recs, r) }); err != nil {
		t.Fatal(err)
	}
	return recs, facts
}
