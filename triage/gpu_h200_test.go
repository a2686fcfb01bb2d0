package triage_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/report"
)

const h200Dir = "../testdata/gpu-e2e/e2e-20261127/"

// jsonFindings is the findings of `report --format json` of an input (kind, title, detail).
func jsonFindings(t *testing.T, in string) []struct{ Kind, Title, Detail string } {
	t.Helper()
	var js bytes.Buffer
	if reportTo(&js, "json", in) != 0 {
		t.Fatalf("%s: report failed", in)
	}
	var doc struct {
		Findings []struct{ Kind, Title, Detail string } `json:"findings"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Findings
}

// A recompile limit hit under fail_on_recompile_limit_hit raises FailOnRecompileLimitHit: the frame does not run
// eager, the process dies (the H200 run of g08b read "f hit config.recompile_limit (2): after this the frame runs
// eager" beside the compile error that ended it).
func TestLimitHitThatRaisedDoesNotRunEager(t *testing.T) {
	for _, dir := range []string{h200Dir + "g08b-limit", "../testdata/fixtures/torch-2.11-cuda/g08b_recompile_limit_fail.triage.log"} {
		var text, js bytes.Buffer
		if reportTo(&text, "text", dir) != 0 || reportTo(&js, "json", dir) != 0 {
			t.Fatalf("%s: report failed", dir)
		}
		if strings.Contains(text.String(), "runs eager") || !strings.Contains(text.String(), "raised FailOnRecompileLimitHit") {
			t.Errorf("%s: text\n%s", dir, text.String())
		}
		var doc struct {
			Hits []struct {
				Raised bool `json:"raised"`
			} `json:"recompile_limit_hits"`
			Findings []struct {
				Kind, Title string
			} `json:"findings"`
		}
		if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Hits) != 1 || !doc.Hits[0].Raised {
			t.Errorf("%s: hits %+v", dir, doc.Hits)
		}
		for _, f := range doc.Findings {
			if f.Kind == string(findings.KindLimitHit) && strings.Contains(f.Title, "eager") {
				t.Errorf("%s: finding %q", dir, f.Title)
			}
		}
	}
	// a limit hit that raised nothing still runs eager (2.14.1 on CPU)
	var text bytes.Buffer
	if reportTo(&text, "text", "../testdata/fixtures/torch-2.14/r12_limit_str.triage.log") != 0 || !strings.Contains(text.String(), "after this the frame runs eager") {
		t.Errorf("plain limit hit:\n%s", text.String())
	}
}

// The cache lookups of a compile Dynamo restarted (attempt 1, after a graph break) are that compile's: the H200
// warm run of g07 showed frame 0/4 (40.7 s, an FX graph and an AOTAutograd cache hit) with no cache state, while
// frames compiled at attempt 0 had theirs. Excerpts: every record of frame 0/4 in the cold and the warm trace.
func TestCacheStateOfARestartedCompile(t *testing.T) {
	for name, want := range map[string]string{"cold": report.CacheCold, "warm": report.CacheWarm} {
		rep, _, err := triage.BuildReport([]string{filepath.Join(h200Dir, "excerpts", name+"-g07-frame-0-4.trace.log")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Compile == nil || len(rep.Compile.Frames) != 1 {
			t.Fatalf("%s: compile %+v", name, rep.Compile)
		}
		if f := rep.Compile.Frames[0]; f.CompileID != "0/4" || f.Cache != want {
			t.Errorf("%s: frame %s cache %q, want %q", name, f.CompileID, f.Cache, want)
		}
	}
}

// Mostly misses → mostly hits is a cache change, not "caches unchanged" (the H200 cold → warm pair of g07: FX graph
// 3 hit 19 miss → 18 hit 1 miss read "caches, versions and settings unchanged: machine load or noise?").
func TestMostlyMissToMostlyHitIsACacheChange(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	known := report.KnowHit | report.KnowMiss
	res := &compare.Result{
		Compile: &compare.Delta{What: "compile", A: f(64.7), B: f(44.2), DeltaS: f(-20.4), Big: true},
		Frames:  []compare.Delta{{What: "`f` [0/4]", A: f(55.2), B: f(40.7), DeltaS: f(-14.5), Big: true}},
	}
	ca := &report.CompileReport{Caches: report.Caches{"fx_graph": {Hit: 3, Miss: 19, Known: known}, "aot_autograd": {Hit: 1, Miss: 24, Known: known}}}
	cb := &report.CompileReport{Caches: report.Caches{"fx_graph": {Hit: 18, Miss: 1, Known: known}, "aot_autograd": {Hit: 18, Miss: 1, Known: known}}}
	res.CompareCaches(ca, cb)
	v, _ := res.DecideVerdict()
	if strings.Contains(v, "unchanged") || !strings.Contains(v, "warm start") {
		t.Errorf("verdict %q", v)
	}
	// a small shift in a mix is no change
	res = &compare.Result{}
	res.CompareCaches(&report.CompileReport{Caches: report.Caches{"fx_graph": {Hit: 10, Miss: 10, Known: known}}},
		&report.CompileReport{Caches: report.Caches{"fx_graph": {Hit: 11, Miss: 9, Known: known}}})
	if len(res.Caches) != 1 || res.Caches[0].Changed() {
		t.Errorf("10/10 → 11/9: %+v", res.Caches)
	}
}

// A recompile finding of several changes of one guard names them all, not the first alone (the H200 run of g08b:
// "f recompiles 2×: dtype: x dtype Float→Half" over Float→Half then Half→BFloat16).
func TestRecompileTitleNamesEveryChange(t *testing.T) {
	found := false
	for _, f := range jsonFindings(t, h200Dir+"g08b-limit") {
		if f.Kind == string(findings.KindRecompile) {
			found = true
			if !strings.Contains(f.Title, "x dtype Float→Half→BFloat16") {
				t.Errorf("title %q", f.Title)
			}
		}
	}
	if !found {
		t.Error("no recompile finding")
	}
	// changes that do not chain are listed
	gc := func(o, n string) guard.Class {
		return guard.Class{Class: "dtype", Source: "x", Old: o, New: n, Detail: "x dtype " + o + "→" + n, Dim: -1}
	}
	if got := findings.DescribeClasses([]guard.Class{gc("Float", "Half"), gc("Float", "BFloat16")}); got != "dtype: x dtype Float→Half, Float→BFloat16" {
		t.Errorf("unchained: %q", got)
	}
	sf := guard.Class{Class: "stack_float", Source: "___stack0", Old: "0.5", Dim: -1}
	if got := findings.DescribeClasses([]guard.Class{sf, sf}); !strings.HasSuffix(got, "(was 0.5, …)") {
		t.Errorf("stack floats: %q", got)
	}
}

// A graph whose only partitions are non-cudagraphable runs wholly outside CUDA graphs, not "part of every call"
// (the H200 run of g03: fb's "Created 1 graph partitions: 0 cudagraphable, 1 non-cudagraphable"); g01's DeviceCopy
// partition beside a cudagraphable one stays a part.
func TestWholeGraphOutsideCUDAGraphs(t *testing.T) {
	for dir, want := range map[string]string{
		h200Dir + "g03-dynamic":                            "the whole graph runs without CUDA graphs",
		"../testdata/gpu-e2e/e2e-20261123/0001-cudagraphs": "part of every call runs outside the CUDA graph",
	} {
		n := 0
		for _, f := range jsonFindings(t, dir) {
			if f.Kind == string(findings.KindCudagraphPartition) {
				n++
				if !strings.Contains(f.Title, want) {
					t.Errorf("%s: %q, want %q", dir, f.Title, want)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d partition findings", dir, n)
		}
	}
}

// The recompile finding's printed guards are each recompile's deciding failure, and say so: the H200 g08b detail
// listed two under "As printed:" while the log (and the report's Recompiles section) has three, the 0/2 recompile
// failing both 0/1 and 0/0.
func TestRecompileDetailSaysWhichGuardsItQuotes(t *testing.T) {
	for _, f := range jsonFindings(t, h200Dir+"g08b-limit") {
		if f.Kind == string(findings.KindRecompile) && (strings.Contains(f.Detail, "As printed:") || !strings.Contains(f.Detail, "deciding")) {
			t.Errorf("detail:\n%s", f.Detail)
		}
	}
}
