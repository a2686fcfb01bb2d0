package trace

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

func ofKind(rs []*logparse.Record, k logparse.Kind) []*logparse.Record {
	var out []*logparse.Record
	for _, r := range rs {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

func readFixture(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTrace_SmallRealExcerpt(t *testing.T) {
	// The first compile of r12_limit_str 2.14 plus its refused compile at the limit (lines from the fixture).
	data, err := os.ReadFile("../../testdata/fixtures/torch-2.14/r12_limit_str.trace/dedicated_log_torch_trace_6imwcz0l.log")
	if err != nil {
		t.Fatal(err)
	}
	var rs []*logparse.Record
	if err := Parse(strings.NewReader(string(data)), logparse.Options{Input: "t", Rank: -1}, func(r *logparse.Record) { rs = append(rs, r) }); err != nil {
		t.Fatal(err)
	}
	rc, lh := ofKind(rs, logparse.KindRecompile), ofKind(rs, logparse.KindLimitHit)
	if len(rc) != 8 || len(lh) != 1 || len(ofKind(rs, logparse.KindCompileError)) != 0 {
		t.Fatalf("recompiles %d limits %d", len(rc), len(lh))
	}
	r := rc[0]
	if r.Source != logparse.FromTrace || r.Recompile.Function != "f" || r.CompileID.String() != "0/1" || r.Recompile.Failures[0].CompileID != "0/0" ||
		!strings.HasPrefix(r.Recompile.Failures[0].Guard, "mode == 'a0'") || r.Era.String() != "2.14" {
		t.Fatalf("first recompile %+v %+v", r, r.Recompile)
	}
	if lh[0].CompileID.String() != "0/8" || lh[0].Limit.Function != "f" {
		t.Fatalf("limit %+v %+v", lh[0], lh[0].Limit)
	}
}

// The same of a TORCH_TRACE file: a hole before its first envelope (longer than a line may be) or before any line
// changes none of its records.
func TestNULBeforeTraceLinesIsNoPartOfThem(t *testing.T) {
	plain := readFixture(t, "../../testdata/fixtures/torch-2.14/gb_recompile.trace/dedicated_log_torch_trace_ql5un06v.log")
	parse := func(log string) string {
		var rs []*logparse.Record
		if err := Parse(strings.NewReader(log), logparse.Options{Input: "t", Rank: -1}, func(r *logparse.Record) { rs = append(rs, r) }); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(rs)
		return string(b)
	}
	want := parse(plain)
	if !strings.Contains(want, `"Break":{`) {
		t.Fatal("the fixture's trace has no graph break: the test would prove nothing")
	}
	for name, log := range map[string]string{
		"a 1 MiB hole at the start":     strings.Repeat("\x00", 1<<20) + plain,
		"a NUL before each glog head":   regexp.MustCompile(`(?m)^[VIWEC]\d{4} `).ReplaceAllString(plain, "\x00$0"),
		"a hole before the second line": strings.Replace(plain, "\n", "\n"+strings.Repeat("\x00", 300<<10), 1),
	} {
		if got := parse(log); got != want {
			t.Errorf("%s: the records differ\n got %.400s\nwant %.400s", name, got, want)
		}
	}
}

// FuzzParse feeds arbitrary bytes to the trace reader, which must never panic. Seeded with every fixture and
// recorded log: go test ./logparse/trace -run '^$' -fuzz FuzzParse -fuzztime 10m
func FuzzParse(f *testing.F) {
	for _, root := range []string{"../../testdata/fixtures", "../../testdata/recorded"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) == ".log" {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(b[:min(len(b), 64<<10)])
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = Parse(bytes.NewReader(data), logparse.Options{Input: "fuzz", Rank: -1, MaxLine: 512}, func(*logparse.Record) {})
	})
}

// A trace's era is the 2.x minor version of the torch it names (logparse's TestTorchVersionReadersAgree holds
// the table of how a version reads); no version or no 2.x one is no era.
func TestTraceEraIsTheRelease(t *testing.T) {
	for in, want := range map[string]logparse.Era{
		"2.14.1": logparse.EraRange(14, 14), "2.11.0+cu130": logparse.EraRange(11, 11), "v2.6": logparse.EraRange(6, 6),
		"": {}, "torch": {}, "3.0.0": {}, "2..6": {},
	} {
		st := traceState{version: in}
		if got := st.era(); got != want {
			t.Errorf("era(%q) = %q, want %q", in, got, want)
		}
	}
}

// Read as the commands read inputs (logparse.ParseInputs with Sink.Trace = Parse, as report.Load sets it), each
// trace file of a run gives Parse's records of it, and its rank.
func TestParseInputsReadsTracesWithParse(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/recorded/ddp-optimizer/trace-214/trace/*.log")
	if len(paths) < 2 {
		t.Fatalf("%d trace files: the test would prove little", len(paths))
	}
	var inputs []logparse.Input
	for _, p := range paths {
		inputs = append(inputs, logparse.Input{Name: p, Path: p, Trace: true, Rank: -1})
	}
	var got []*logparse.Record
	ranks := map[int]bool{}
	var mu sync.Mutex // OnRank is called from the readers' goroutines (logparse.Sink)
	errs := logparse.ParseInputs(inputs, 2, false, nil, logparse.Sink{Trace: Parse,
		Emit: func(r *logparse.Record) { got = append(got, r) }, OnRank: func(n int) { mu.Lock(); ranks[n] = true; mu.Unlock() }})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var want []*logparse.Record
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		err = Parse(f, logparse.Options{Input: p, Rank: -1, SkipOther: true}, func(r *logparse.Record) { want = append(want, r) })
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if len(want) == 0 || string(g) != string(w) {
		t.Errorf("ParseInputs gave %d records, Parse %d; they differ: %.300s\nwant %.300s", len(got), len(want), g, w)
	}
	if len(ranks) != len(paths) {
		t.Errorf("ranks seen %v, want one per file (%d)", ranks, len(paths))
	}
}
