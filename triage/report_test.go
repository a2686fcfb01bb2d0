package triage

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

type expectedCounts struct {
	GraphBreaks        int   `json:"graph_breaks"`
	Recompiles         int   `json:"recompiles"`
	RecompileLimitHits int   `json:"recompile_limit_hits"`
	CudagraphSkips     int   `json:"cudagraph_skips"`
	CompileErrors      int   `json:"compile_errors"`
	Ranks              []int `json:"ranks"`
}

const fixtures = "../testdata/fixtures"

func loadExpected(t *testing.T) map[string]expectedCounts {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]expectedCounts
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestFixtureCounts checks every fixture listed in expected.json against its ground truth.
func TestFixtureCounts(t *testing.T) {
	exp := loadExpected(t)
	names := make([]string, 0, len(exp))
	for k := range exp {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		want := exp[name]
		t.Run(name, func(t *testing.T) {
			got := countsOf(t, filepath.Join(fixtures, name))
			if want.Ranks == nil {
				want.Ranks = []int{}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}
