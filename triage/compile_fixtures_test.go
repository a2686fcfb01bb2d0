package triage

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/report"
)

const CompileFixtures = "../testdata/compile"

func LoadReport(t *testing.T, paths ...string) *report.Report {
	t.Helper()
	l, err := report.Load(paths, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l.Report
}

func near(a, b float64) bool { return math.Abs(a-b) <= 0.01*math.Max(math.Abs(a), math.Abs(b))+1e-9 }

type truthRank struct {
	Caches  map[string]map[string]int `json:"caches"`
	TotalS  float64                   `json:"compile_total_s"`
	Frames  int                       `json:"frames"`
	Runtime int                       `json:"runtime_records"`
}

// checkTruth compares a report's compile object with counts derived from the trace files.
func checkTruth(t *testing.T, name string, c *report.CompileReport, want map[string]truthRank, caches []string) {
	t.Helper()
	var total float64
	lookups := 0
	for _, w := range want {
		total += w.TotalS
		for _, s := range w.Caches {
			lookups += len(s)
		}
	}
	if total == 0 && lookups == 0 {
		if c != nil {
			t.Errorf("%s: compile object %+v from no compile record", name, c)
		}
		return
	}
	if c == nil {
		t.Errorf("%s: no compile object, want %+v", name, want)
		return
	}
	if c.TotalS == nil || !near(*c.TotalS, total) {
		t.Errorf("%s: compile.total_s %v, want %.6f", name, c.TotalS, total)
	}
	rs := c.Ranks()
	for r, w := range want {
		rc := rs[report.AtoiOr(r, -1)]
		if rc == nil {
			t.Errorf("%s: rank %s missing", name, r)
			continue
		}
		if rc.TotalS == nil || !near(*rc.TotalS, w.TotalS) || rc.Frames != w.Frames {
			t.Errorf("%s rank %s: total %v frames %d, want %.6f, %d", name, r, rc.TotalS, rc.Frames, w.TotalS, w.Frames)
		}
		for _, cache := range caches {
			got, ok := rc.Caches[cache]
			ws := w.Caches[cache]
			if !ok && len(ws) == 0 {
				continue
			}
			if got.Hit != ws["hit"] || got.Miss != ws["miss"] || got.Bypass != ws["bypass"] || got.Writes != ws["writes"] {
				t.Errorf("%s rank %s %s: got %s, want %v", name, r, cache, got, ws)
			}
		}
	}
}

// TestCompileGroundTruth: the recorded runs' expected.json (ground_truth.py, from the trace files).
func TestCompileGroundTruth(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(CompileFixtures, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]struct {
		PerRank map[string]truthRank `json:"per_rank"`
	}
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatal(err)
	}
	if len(exp) < 14 {
		t.Fatalf("expected.json lists %d trace dirs", len(exp))
	}
	for dir, e := range exp {
		rep := LoadReport(t, filepath.Join(CompileFixtures, dir))
		checkTruth(t, dir, rep.Compile, e.PerRank, report.CacheNames)
		if rep.Compile != nil && rep.Compile.Source != report.SourceTrace {
			t.Errorf("%s: source %q", dir, rep.Compile.Source)
		}
	}
}

var (
	envName   = regexp.MustCompile(`^\S.*?\] \{"artifact": \{"name": "([a-z_]+)"`)
	envMetric = regexp.MustCompile(`^\S.*?\] \{"(bwd_)?compilation_metrics(_runtime)?": `)
	stateRe   = regexp.MustCompile(`"cache_state": ?"([a-z_]+)"`)
	fileRank  = regexp.MustCompile(`_rank_(\d+)_`)
)

// countTrace is an independent count of one trace file: cache artifact envelopes and compile totals.
func countTrace(t *testing.T, path string) truthRank {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := truthRank{Caches: map[string]map[string]int{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	pendingHash := ""
	for sc.Scan() {
		line := sc.Text()
		if pendingHash != "" {
			if m := stateRe.FindStringSubmatch(line); m != nil && strings.HasPrefix(line, "\t") {
				out.Caches[pendingHash] = addState(out.Caches[pendingHash], m[1])
			}
			pendingHash = ""
		}
		if m := envName.FindStringSubmatch(line); m != nil {
			name := m[1]
			cache := map[bool]string{true: "fx_graph", false: "aot_autograd"}[strings.HasPrefix(name, "fx_graph_cache_")]
			switch {
			case strings.HasSuffix(name, "_cache_hash") && (strings.HasPrefix(name, "fx_graph") || strings.HasPrefix(name, "aotautograd")):
				pendingHash = cache
			case strings.HasPrefix(name, "fx_graph_cache_") || strings.HasPrefix(name, "aotautograd_cache_"):
				out.Caches[cache] = addState(out.Caches[cache], name[strings.LastIndexByte(name, '_')+1:])
			}
			continue
		}
		if m := envMetric.FindStringSubmatch(line); m != nil {
			if m[2] != "" {
				out.Runtime++
				continue
			}
			body := line[strings.Index(line, "] {")+2:]
			var raw map[string]json.RawMessage
			if json.Unmarshal([]byte(body), &raw) != nil {
				continue
			}
			for k, msg := range raw {
				var v map[string]any
				if k != "compilation_metrics" && k != "bwd_compilation_metrics" || json.Unmarshal(msg, &v) != nil {
					continue
				}
				if k == "bwd_compilation_metrics" {
					us, _ := v["backward_cumulative_compile_time_us"].(float64)
					out.TotalS += us / 1e6
				} else if us, ok := v["dynamo_cumulative_compile_time_us"].(float64); ok {
					out.TotalS += us / 1e6
					out.Frames++
				} else if s, ok := v["entire_frame_compile_time_s"].(float64); ok {
					out.TotalS += s
					out.Frames++
				} else if k == "compilation_metrics" {
					out.Frames++
				}
			}
		}
	}
	return out
}

func addState(m map[string]int, state string) map[string]int {
	if m == nil {
		m = map[string]int{}
	}
	if state == "hit" || state == "miss" || state == "bypass" {
		m[state]++
	}
	return m
}

// TestCompileEveryTraceFixture: on every trace fixture, compile.caches and compile.total_s equal the trace's own
// events (fx_graph_cache_*, aotautograd_cache_*, 2.6's aotautograd_cache_hash by its payload; frame compiles +
// lazy backward compiles), per rank, within 1 %.
func TestCompileEveryTraceFixture(t *testing.T) {
	var inputs [][]string
	dirs, _ := filepath.Glob("../testdata/*/torch-*/*.trace")
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "*.log"))
		inputs = append(inputs, append([]string{d}, files...))
	}
	tl, _ := filepath.Glob("../testdata/fixtures/tlparse/*.log")
	for _, f := range tl {
		inputs = append(inputs, []string{f, f})
	}
	if len(inputs) < 30 {
		t.Fatalf("only %d trace fixtures", len(inputs))
	}
	for _, in := range inputs {
		want := map[string]truthRank{}
		for _, f := range in[1:] {
			r := "-1"
			if m := fileRank.FindStringSubmatch(filepath.Base(f)); m != nil {
				r = m[1]
			}
			got := countTrace(t, f)
			w := want[r]
			w.TotalS += got.TotalS
			w.Frames += got.Frames
			if w.Caches == nil {
				w.Caches = map[string]map[string]int{}
			}
			for c, s := range got.Caches {
				for k, v := range s {
					w.Caches[c] = addN(w.Caches[c], k, v)
				}
			}
			want[r] = w
		}
		if strings.Contains(in[0], "tlparse") {
			// tlparse inputs carry their rank in the envelopes, not the file name
			rep := LoadReport(t, in[0])
			if rep.Compile != nil && len(rep.Compile.PerRank) > 0 {
				var total float64
				for _, w := range want {
					total += w.TotalS
				}
				if rep.Compile.TotalS == nil || !near(*rep.Compile.TotalS, total) {
					t.Errorf("%s: total %v, want %.6f", in[0], rep.Compile.TotalS, total)
				}
				continue
			}
			checkTruth(t, in[0], rep.Compile, want, fxAOT)
			continue
		}
		checkTruth(t, in[0], LoadReport(t, in[0]).Compile, want, fxAOT)
	}
}

var fxAOT = []string{"fx_graph", "aot_autograd"}

func addN(m map[string]int, k string, n int) map[string]int {
	if m == nil {
		m = map[string]int{}
	}
	m[k] += n
	return m
}

// The 2.11 GPU trace (shared fixtures, when present): run-time work (cudagraphify) is reported on its own,
// not in the compile total; the AOT and FX misses are counted.
func TestCompileRuntimeRecords(t *testing.T) {
	dir := "../../shared/fixtures/torch-2.11-cuda/g01_cg_cpu_input.trace"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no shared 2.11 fixtures here")
	}
	c := LoadReport(t, dir).Compile
	if c == nil || c.TotalS == nil || !near(*c.TotalS, 3.207018) || c.Runtime == nil || c.Runtime.CudagraphifyS == nil {
		t.Fatalf("compile %+v", c)
	}
	if c.Caches["fx_graph"].Miss != 1 || c.Caches["aot_autograd"].Miss != 1 {
		t.Errorf("caches %v", c.Caches)
	}
}
