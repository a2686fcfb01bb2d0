package triage

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// A DDPOptimizer split shows once whatever input of the run holds it (real 2.14.1 and 2.6, two gloo ranks,
// testdata/recorded/ddp-optimizer/trace-214 and trace-26, preset distributed): its TORCH_TRACE alone (the
// optimize_ddp_split_graph and optimize_ddp_split_child artifacts), its text log alone (the ddp_graphs log), the
// run directory (both), or the trace and the text log named. Before, the trace alone showed no split. No count
// counts it: the graph breaks are the same as without it.
func TestDDPSplitFromTraceOnce(t *testing.T) {
	for _, c := range []struct {
		dir, cid string
		breaks   int
	}{{"trace-214", "4/0", 2}, {"trace-26", "1/0", 1}} {
		run := filepath.Join("..", "testdata", "recorded", "ddp-optimizer", c.dir)
		trace, text := filepath.Join(run, "trace"), filepath.Join(run, "stderr.log")
		for _, in := range []struct {
			paths  []string
			source string // what the finding says showed it: of a process both show, the log's is counted
		}{{[]string{trace}, "(TORCH_TRACE)"}, {[]string{text}, "(ddp_graphs log)"}, {[]string{run}, "(ddp_graphs log)"},
			{[]string{trace, text}, "(ddp_graphs log)"}, {[]string{text, trace}, "(ddp_graphs log)"}} {
			rep, _, err := BuildReport(in.paths, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := []*report.DDPSplitSummary{{CompileID: c.cid, Submodules: 3, Names: []string{"submod_0", "submod_1",
				"submod_2"}, Records: 2, Ranks: []int{0, 1}}}
			var got []*report.DDPSplitSummary
			for _, s := range rep.DDPSplits {
				got = append(got, &report.DDPSplitSummary{CompileID: s.CompileID, Submodules: s.Submodules, Names: s.Names,
					Records: s.Records, Ranks: s.Ranks}) // what the JSON shows
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %v: splits %s, want %s", c.dir, in.paths, splitsString(got), splitsString(want))
			}
			if rep.Counts.GraphBreaks != c.breaks {
				t.Errorf("%s %v: %d graph breaks, want %d", c.dir, in.paths, rep.Counts.GraphBreaks, c.breaks)
			}
			a := Analyze(rep, nil, nil)
			var titles []string
			for _, f := range a.Findings {
				if f.Kind == report.KindDDPSplit {
					titles = append(titles, f.Title)
					if !f.Expected || f.Playbook != "expected-ddp-optimizer" || f.Records != 2 ||
						!strings.Contains(f.Detail, "Records: 2 · ranks 0,1 "+in.source+"\n") {
						t.Errorf("%s %v: split finding %+v", c.dir, in.paths, f)
					}
				}
			}
			wantTitle := "DDPOptimizer split the graph of compile " + c.cid +
				" into 3 submodules at DDP bucket boundaries — by design"
			if len(titles) != 1 || titles[0] != wantTitle {
				t.Errorf("%s %v: split findings %q, want [%q]", c.dir, in.paths, titles, wantTitle)
			}
		}
	}
}

func splitsString(ss []*report.DDPSplitSummary) string {
	var out []string
	for _, s := range ss {
		out = append(out, fmt.Sprintf("%s %d %v x%d ranks %v", s.CompileID, s.Submodules, s.Names, s.Records, s.Ranks))
	}
	return "[" + strings.Join(out, "; ") + "]"
}

// A trace cut between the split's children (rank 0's real 2.14.1 trace, up to the second child) shows the split
// without a count of its submodules, and says it was the trace that was cut.
func TestDDPSplitTraceCutIsNotCounted(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "recorded", "ddp-optimizer", "trace-214", "trace",
		"*rank_0_*.log"))
	if len(paths) != 1 {
		t.Fatalf("trace of rank 0: %v", paths)
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	head, _, ok := strings.Cut(string(data), "\n"+`V1127 07:46:30.224000 13891 torch/_dynamo/backends/distributed.py:627] {"optimize_ddp_split_child": {"name": "submod_1"}`)
	if !ok {
		t.Fatal("no second child in the trace")
	}
	path := filepath.Join(t.TempDir(), "dedicated_log_torch_trace_rank_0_cut.log")
	if err := os.WriteFile(path, []byte(head+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, _, err := BuildReport([]string{path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.DDPSplits) != 1 || rep.DDPSplits[0].Submodules != -1 || rep.DDPSplits[0].CompileID != "4/0" {
		t.Fatalf("splits %s", splitsString(rep.DDPSplits))
	}
	var titles []string
	for _, f := range Analyze(rep, nil, nil).Findings {
		if f.Kind == report.KindDDPSplit {
			titles = append(titles, f.Title)
		}
	}
	want := "DDPOptimizer split the graph of compile 4/0 (what TORCH_TRACE shows of it is cut or does not list the " +
		"submodules its split graph calls: not counted) at DDP bucket boundaries — by design"
	if len(titles) != 1 || titles[0] != want {
		t.Errorf("split findings %q, want [%q]", titles, want)
	}
	if got := findings.DdpSplitAside(rep.DDPSplits); got != "1 DDPOptimizer split by design" {
		t.Errorf("verdict aside %q", got)
	}
}
