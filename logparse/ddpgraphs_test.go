package logparse

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func ddpOptimizerLog(run string) string {
	return filepath.Join("..", "testdata", "recorded", "ddp-optimizer", "runs", run, "combined.log")
}

// ddpSig is a KindDDPGraph record in a line: rank, compile id, stage, what it names, whether it is whole.
func ddpSig(r *Record) string {
	g := r.DDP
	return fmt.Sprintf("r%d %s %v %s calls=%s complete=%v counted=%v", r.Rank, r.CompileID, g.Stage,
		strings.Join(g.Submodules, ","), strings.Join(g.Calls, ","), g.Complete, r.SplitCounted())
}

// DDPOptimizer's split of a graph at DDP's bucket boundaries is printed only by the ddp_graphs log, as messages
// whose first line is empty (real 2.14.1 and 2.6, two gloo ranks, testdata/recorded/ddp-optimizer): each rank's
// split message (the original graph, the split graph calling submod_0…submod_2, their three graphs), a message a
// submodule it compiles, and the final graph. Before, they were plain lines a count never built.
func TestDDPGraphRecords(t *testing.T) {
	perRank := func(rank int, cid string) []string {
		p := fmt.Sprintf("r%d %s ", rank, cid)
		return []string{
			p + "split submod_0,submod_1,submod_2 calls=submod_0,submod_1,submod_2 complete=true counted=true",
			p + "submodule submod_0 calls= complete=false counted=false",
			p + "submodule submod_1 calls= complete=false counted=false",
			p + "submodule submod_2 calls= complete=false counted=false",
			p + "final  calls=compiled_submod_0,compiled_submod_1,compiled_submod_2 complete=true counted=false",
		}
	}
	for _, c := range []struct{ run, cid string }{{"0001-custom", "4/0"}, {"0002-custom", "1/0"}} {
		want := append(perRank(0, c.cid), perRank(1, c.cid)...)
		for _, skip := range []bool{true, false} {
			recs, facts := parseFile(t, ddpOptimizerLog(c.run), Options{Rank: -1, SkipOther: skip})
			var got []string
			breaks := 0
			for _, r := range recs {
				switch r.Kind {
				case KindDDPGraph:
					got = append(got, ddpSig(r))
				case KindGraphBreak:
					breaks++
				}
			}
			// records come out as each rank's message ends: order them by rank for the comparison
			var sorted []string
			for _, rank := range []string{"r0 ", "r1 "} {
				for _, s := range got {
					if strings.HasPrefix(s, rank) {
						sorted = append(sorted, s)
					}
				}
			}
			if !reflect.DeepEqual(sorted, want) {
				t.Errorf("%s (SkipOther %v): ddp_graphs records\n got %q\nwant %q", c.run, skip, sorted, want)
			}
			if breaks == 0 || !facts.Artifacts["ddp_graphs"] {
				t.Errorf("%s: %d graph breaks, artifacts %v", c.run, breaks, facts.Artifacts)
			}
		}
	}
}

// What only looks like a ddp_graphs message is not one: a message of another artifact, a user's print of the
// same lines, a split message cut before its end or whose sections are not the submodules its graph calls.
func TestDDPGraphLookalikes(t *testing.T) {
	const pre = "V1127 06:39:06.564000 3305 torch/_dynamo/backends/distributed.py:619] [4/0] [__ddp_graphs] "
	split := []string{"", "---orig graph---", "graph():", "    return (x_2,)", "", "---split graph---", "graph():",
		"    %submod_0 : [num_users=1] = call_module[target=submod_0](args = (%l_x_,), kwargs = {})",
		"    %submod_1 : [num_users=1] = call_module[target=submod_1](args = (%submod_0,), kwargs = {})",
		"    return (submod_1,)", "", "---submod_0 graph---", "graph():", "    return relu", "",
		"---submod_1 graph---", "graph():", "    return relu", "", "---------------", ""}
	parse := func(in string) []*Record {
		var out []*Record
		if err := Parse(strings.NewReader(in), Options{Rank: -1}, func(r *Record) {
			if r.Kind == KindDDPGraph {
				out = append(out, r)
			}
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	prefixed := func(p string, lines []string) string {
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(p + l + "\n")
		}
		return b.String()
	}
	if rs := parse(prefixed(pre, split)); len(rs) != 1 || !rs[0].SplitCounted() || len(rs[0].DDP.Submodules) != 2 {
		t.Fatalf("the split message: %d records %+v", len(rs), rs)
	}
	other := strings.Replace(pre, "[__ddp_graphs]", "[__graph_code]", 1)
	if rs := parse(prefixed(other, split)); len(rs) != 0 {
		t.Errorf("another artifact's message read as ddp_graphs: %+v", rs[0].DDP)
	}
	if rs := parse(strings.Join(split, "\n") + "\n"); len(rs) != 0 {
		t.Errorf("the program's own print read as ddp_graphs: %+v", rs[0].DDP)
	}
	cut := split[:len(split)-2] // the input ends before "---------------"
	if rs := parse(prefixed(pre, cut)); len(rs) != 1 || rs[0].SplitCounted() {
		t.Errorf("a split message cut before its end is counted: %+v", rs)
	}
	one := append(append([]string{}, split[:15]...), "---------------", "") // the section of submod_1 missing
	if rs := parse(prefixed(pre, one)); len(rs) != 1 || rs[0].SplitCounted() {
		t.Errorf("a split message whose sections miss a submodule it calls is counted: %+v", rs[0].DDP)
	}
	if _, ok := parseDDPGraph([]string{"", "---split graph---"}); ok {
		t.Error("a split graph without the original before it read as a message")
	}
	if _, ok := parseDDPGraph([]string{"", "graph():"}); ok {
		t.Error("a message without a section head read as one")
	}
}

// Parsed in parts, the recorded logs give the ddp_graphs records of a serial parse wherever the boundaries fall
// (a message's lines cross them).
func TestDDPGraphInParts(t *testing.T) {
	var b strings.Builder
	for range 4 {
		for _, run := range []string{"0001-custom", "0002-custom"} {
			data, err := os.ReadFile(ddpOptimizerLog(run))
			if err != nil {
				t.Fatal(err)
			}
			b.Write(data)
		}
	}
	path := filepath.Join(t.TempDir(), "all.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	collect := func(workers int, partSize int64) []string {
		var out []string
		parseFileInParts(t, path, workers, partSize, Options{Rank: -1, SkipOther: true}, func(r *Record) {
			if r.Kind == KindDDPGraph {
				out = append(out, fmt.Sprintf("l%d-%d %s", r.FirstLine, r.LastLine, ddpSig(r)))
			}
		})
		return out
	}
	serial := collect(1, 1<<40)
	if len(serial) != 4*2*2*5 {
		t.Fatalf("serial parse: %d ddp_graphs records", len(serial))
	}
	for _, parts := range []int{2, 7, 61, 300} {
		if got := collect(4, int64(b.Len()/parts+1)); !reflect.DeepEqual(got, serial) {
			t.Errorf("%d parts: %d records (serial %d)\n got %q\nwant %q", parts, len(got), len(serial), got, serial)
		}
	}
}
