package logparse

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func dynamicFalseLog(name string) string {
	return filepath.Join("..", "testdata", "recorded", "dynamic-false", name)
}

// shapeSig is a KindShapeEnv record in a line: its compile id and what it says.
func shapeSig(r *Record) string {
	s := r.Shape
	return strings.TrimSpace(fmt.Sprintf("%s %s %s=%s %s", r.CompileID, s.Event, s.Symbol, s.Value, s.Source))
}

func parseFile(t *testing.T, path string, opt Options) ([]*Record, Facts) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []*Record
	var facts Facts
	opt.OnFacts = func(f Facts) { facts = f }
	if err := Parse(f, opt, func(r *Record) { recs = append(recs, r) }); err != nil {
		t.Fatal(err)
	}
	return recs, facts
}

// The dynamic log's lines of a compile are records of their own (real 2.14.1 and 2.6, testdata/recorded/
// dynamic-false): create_env says the log was on for that compile, create_symbol which input it made symbolic,
// and 2.14's pgo line what automatic dynamic marked. Before, they were plain lines a count did not even build,
// so a recompile under dynamic=False and one under automatic dynamic read the same.
func TestDynamicLogRecords(t *testing.T) {
	for _, c := range []struct {
		log  string
		want []string
	}{
		{"dynauto-214.log", []string{"0/0 create_env =", "0/1 create_env =", "0/1 marking_dynamic = L['x']", "0/1 create_symbol s77=16 L['x'].size()[0]"}},
		{"dynauto-26.log", []string{"0/0 create_env =", "0/1 create_env =", "0/1 create_symbol s0=16 L['x'].size()[0]"}},
		{"dynfalse-214.log", []string{"0/0 create_env =", "0/1 create_env ="}},
		{"dynfalse-26.log", []string{"0/0 create_env =", "0/1 create_env ="}},
		{"unbacked-214.log", []string{"0/0 create_env =", "0/1 create_env =", "0/1 marking_dynamic = L['x']", "0/1 create_symbol u0= L['x'].size()[0]"}},
	} {
		for _, skip := range []bool{true, false} {
			recs, facts := parseFile(t, dynamicFalseLog(c.log), Options{Rank: -1, SkipOther: skip})
			var got []string
			recompiles := 0
			for _, r := range recs {
				switch r.Kind {
				case KindShapeEnv:
					got = append(got, shapeSig(r))
				case KindRecompile:
					recompiles++
				}
			}
			if !reflect.DeepEqual(got, c.want) || recompiles != 1 {
				t.Errorf("%s (SkipOther %v): %d recompiles, dynamic-log records\n got %q\nwant %q", c.log, skip, recompiles, got, c.want)
			}
			if !facts.Dynamic {
				t.Errorf("%s: Facts.Dynamic false: the dynamic log's lines are not noted", c.log)
			}
		}
	}
	recs, _ := parseFile(t, dynamicFalseLog("dynauto-214.log"), Options{Rank: -1, SkipOther: true})
	for _, r := range recs {
		if r.Kind == KindShapeEnv && r.Shape.Event == MarkedDynamic && r.Shape.Reason != "from automatic dynamic/PGO" {
			t.Errorf("marking reason %q", r.Shape.Reason)
		}
	}
}

// What only reads like the dynamic log is not it: a program's own print, a line of another logger, and a WARNING
// of symbolic_shapes (printed whatever TORCH_LOGS asked for) is no sign the log was on.
func TestDynamicLogLookalikes(t *testing.T) {
	in := strings.Join([]string{
		"create_env",
		"create_symbol s0 = 3 for L['n'] [-int_oo, int_oo] user print",
		"W1127 05:36:22.222000 22490 torch/fx/experimental/symbolic_shapes.py:7000] [0/1] some warning",
		"I1127 05:36:22.222000 22490 mylib/shapes.py:10] [0/1] create_env",
		"",
	}, "\n")
	var facts Facts
	var kinds []Kind
	err := Parse(strings.NewReader(in), Options{Rank: -1, OnFacts: func(f Facts) { facts = f }}, func(r *Record) { kinds = append(kinds, r.Kind) })
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kinds {
		if k == KindShapeEnv {
			t.Errorf("a look-alike made a shape record: %v", kinds)
		}
	}
	if facts.Dynamic {
		t.Error("Facts.Dynamic set by a WARNING or a user line")
	}
	for _, l := range []string{"create_symbol s0", "create_symbol s0 = 3 for", "marking x as dynamicish", "create_envs"} {
		if ev, ok := parseShapeLine(l); ok {
			t.Errorf("%q read as %+v", l, ev)
		}
	}
	if ev, ok := parseShapeLine("create_symbol s0 duck sized L['y'].size()[0]"); !ok || ev.Source != "L['y'].size()[0]" || ev.Value != "" {
		t.Errorf("duck-sized line: %+v %v", ev, ok)
	}
	// an unbacked symbol of no input names where it was made: no source (the real one's form: unbacked-214.log)
	if ev, ok := parseShapeLine("create_unbacked_symint u0 [-int_oo, int_oo] return x * 2  # r.py:8 in f"); !ok || ev.Source != "" || !ev.Unbacked {
		t.Errorf("unbacked line without a source: %+v %v", ev, ok)
	}
}

// Parsed in parts, a log of dynamic-log lines gives the records and facts of a serial parse, wherever the
// boundaries fall (the lines of a compile's shape environment cross them).
func TestDynamicLogInParts(t *testing.T) {
	data, err := os.ReadFile(dynamicFalseLog("more-214.log"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, l := range strings.SplitAfter(strings.Repeat(string(data), 8), "\n") {
		if l != "" {
			fmt.Fprintf(&b, "[rank%d]:%s", i%3, l) // three ranks interleaved, as torchrun writes them
		}
	}
	path := filepath.Join(t.TempDir(), "all.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	collect := func(workers int, partSize int64) ([]string, Facts) {
		var out []string
		var facts Facts
		opt := Options{Rank: -1, SkipOther: true, OnFacts: func(f Facts) { facts = f }}
		parseFileInParts(t, path, workers, partSize, opt, func(r *Record) {
			if r.Kind == KindShapeEnv {
				out = append(out, fmt.Sprintf("r%d l%d %s", r.Rank, r.FirstLine, shapeSig(r)))
			}
		})
		return out, facts
	}
	serial, sf := collect(1, 1<<40)
	if len(serial) < 100 || !sf.Dynamic {
		t.Fatalf("serial parse: %d dynamic-log records, Dynamic %v", len(serial), sf.Dynamic)
	}
	for _, parts := range []int{2, 7, 61, 300} {
		got, f := collect(4, int64(b.Len()/parts+1))
		if !reflect.DeepEqual(got, serial) || !f.Dynamic {
			t.Errorf("%d parts: %d records (serial %d), Dynamic %v", parts, len(got), len(serial), f.Dynamic)
		}
	}
}

func TestIsDynamicEmitter(t *testing.T) {
	for e, want := range map[string]bool{
		"torch/fx/experimental/symbolic_shapes.py:4791": true, "/usr/lib/python3/site-packages/torch/fx/experimental/sym_node.py:12": true,
		"torch/fx/experimental/recording.py:3": true, "torch.fx.experimental.symbolic_shapes": true, "torch.fx.experimental.sym_node": true,
		"torch.fx.experimental.recording": true, "torch/fx/experimental/proxy_tensor.py:1": false, "torch/_dynamo/guards.py:5621": false,
		"torch.fx.experimental.proxy_tensor": false, "a/fx/experimental/x/fx/experimental/sym_node.py:1": true, "": false,
	} {
		if got := isDynamicEmitter([]byte(e)); got != want {
			t.Errorf("isDynamicEmitter(%q) = %v, want %v", e, got, want)
		}
	}
}
