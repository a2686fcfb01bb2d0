package story

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/text"
)

// storeOf copies recorded run dirs into a temporary store, numbered 1, 2, … in the order given.
func storeOf(t *testing.T, dirs ...string) string {
	t.Helper()
	store := t.TempDir()
	for i, d := range dirs {
		dst := filepath.Join(store, fmt.Sprintf("%04d-%s", i+1, strings.SplitN(filepath.Base(d), "-", 2)[1]))
		if err := os.CopyFS(dst, os.DirFS(d)); err != nil {
			t.Fatal(err)
		}
		meta := filepath.Join(dst, "meta.json")
		var m map[string]any
		data, err := os.ReadFile(meta)
		if err != nil || json.Unmarshal(data, &m) != nil {
			t.Fatalf("%s: %v", meta, err)
		}
		m["id"] = i + 1
		data, _ = json.Marshal(m)
		os.WriteFile(meta, data, 0o644)
	}
	return store
}

// Each count of a run is worded once (Run.CountWords): the text line, the Markdown table and the JSON say the
// same, and what the report of the run dir says. A rank whose log was silenced shows a graph break its log kept
// (at least 1) and no recompile or limit-hit count (not in the log); a crashed run's runtime errors are a floor in
// every form (real runs: silenced-rank, peer-abort).
func TestLogWordsEachCountOnce(t *testing.T) {
	rec := "../../testdata/recorded/"
	store := storeOf(t, rec+"peer-abort/runs-2.6/0001-breaks", rec+"silenced-rank/runs/0001-breaks")
	s, txt, md, js := logOf(t, store)
	for _, want := range []string{"≥2 runtime errors", "at least 1 graph break · recompiles, limit hits, CUDA-graph skips not in the log"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, txt.String())
		}
	}
	if strings.Contains(txt.String(), "nothing counted") {
		t.Errorf("text says nothing counted of a run whose verdict counts a break:\n%s", txt.String())
	}
	for _, want := range []string{"| ≥0 | ≥0 | ≥0 | not logged | ≥0 | ≥2 |", "| ≥1 | not in the log | not in the log | not in the log | 0 | 0 |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	var doc struct {
		Runs []struct {
			CountWords []CountWords `json:"count_words"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || len(doc.Runs) != 2 {
		t.Fatalf("json %v", err)
	}
	for i, r := range s.Runs {
		if len(doc.Runs[i].CountWords) == 0 {
			t.Errorf("run %d: no count_words in JSON", r.ID)
		}
		// the text groups the kinds missing for one reason (Grouped): the JSON's words, grouped so, are in it
		var ws []CountWords
		for _, cw := range doc.Runs[i].CountWords {
			if cw.Count != "runtime_errors" {
				ws = append(ws, cw)
			}
		}
		for _, item := range Grouped(ws, LongNouns) {
			if !strings.Contains(txt.String(), item) {
				t.Errorf("run %d: JSON %q not in the text", r.ID, item)
			}
		}
	}
}

// A run of the guards preset logged no graph breaks, yet one printed: "at least 1" in the text, the table and the
// JSON alike; a run stopped before it compiled anything has no count in any form but its runtime errors (real
// runs: testdata/recorded/log-counts).
func TestLogAtLeastAndNothingCompiledAgree(t *testing.T) {
	s, err := Build("../../testdata/recorded/log-counts/runs")
	if err != nil {
		t.Fatal(err)
	}
	var txt, md, js bytes.Buffer
	WriteText(&txt, s, text.Options{Width: 300})
	WriteMarkdown(&md, s)
	WriteJSON(&js, s)
	if !strings.Contains(txt.String(), "at least 1 graph break · 2 recompiles") || !strings.Contains(md.String(), "| ≥1 | 2 |") ||
		!strings.Contains(md.String(), "| — | — | — | — | — | ≥0 |") {
		t.Errorf("text:\n%s\nmarkdown:\n%s", txt.String(), md.String())
	}
	if !strings.Contains(js.String(), `"words": "at least 1 graph break"`) || !strings.Contains(js.String(), `"words": "graph breaks not counted (nothing compiled)"`) {
		t.Errorf("json:\n%s", js.String())
	}
}

// The sparkline draws an "at least N" count (breaks printed while graph_breaks was off: the guards preset) as a
// floor of N, as the trend line says "≥1"; it drew a gap (testdata/recorded/log-counts 0006-guards).
func TestSparklineOfAnAtLeastCount(t *testing.T) {
	s, err := Build(storeOf(t, filepath.Join("..", "..", "testdata", "recorded", "log-counts", "runs", "0006-guards")))
	if err != nil {
		t.Fatal(err)
	}
	breaks, _ := s.Sparkline()
	floors, _ := s.SparkFloors()
	if len(breaks) != 1 || breaks[0] != 1 || !floors[0] {
		t.Errorf("breaks %v floors %v", breaks, floors)
	}
}

// The short words (the TUI's runs list) and the long ones (the log) of every count of a run differ in their
// nouns alone: the same value, so the same exact count, floor or no count, for runs that stopped, crashed, were
// silenced, logged no graph breaks, or compiled nothing (real runs: testdata/recorded). Where nothing was counted,
// one phrase (Uncounted) heads the text line, the report's own words.
func TestShortAndLongCountWordsDifferInTheirNounsAlone(t *testing.T) {
	rec := "../../testdata/recorded/"
	store := storeOf(t, rec+"silenced-rank/runs/0001-breaks", rec+"silenced-logging/runs/0001-breaks",
		rec+"log-counts/runs/0006-guards", rec+"log-counts/runs/0003-breaks", rec+"interrupt-reraise/runs/0001-breaks",
		rec+"invalid-logs/runs/0001-custom", rec+"caught-compile/runs/0001-breaks", rec+"compile-off/runs/0001-breaks",
		rec+"peer-abort/runs-2.6/0001-breaks")
	s, err := Build(store)
	if err != nil {
		t.Fatal(err)
	}
	short := map[string]string{CountGraphBreaks: "break", CountCudagraphSkips: "skip", CountCompileErrors: "error"}
	long := map[string]string{CountGraphBreaks: "graph break", CountCudagraphSkips: "CUDA-graph skip", CountCompileErrors: "compile error"}
	for i := range s.Runs {
		r := &s.Runs[i]
		an := r.Analysis()
		if an == nil {
			t.Fatalf("run %d: no analysis", r.ID)
		}
		lw, sw := WordCounts(an, LongNouns), WordCounts(an, ShortNouns)
		if fmt.Sprint(lw) != fmt.Sprint(r.CountWords) || len(sw) != len(lw) {
			t.Fatalf("run %d: long words %v, the log's %v, short %v", r.ID, lw, r.CountWords, sw)
		}
		for j := range lw {
			want := lw[j].Words
			if n, ok := long[lw[j].Count]; ok {
				want = strings.Replace(want, n, short[lw[j].Count], 1)
			}
			if sw[j].Count != lw[j].Count || sw[j].Value != lw[j].Value || sw[j].Words != want {
				t.Errorf("run %d: short %+v, long %+v", r.ID, sw[j], lw[j])
			}
		}
		if none := Uncounted(an); none != "" && !strings.HasPrefix(r.countsLine(), none) {
			t.Errorf("run %d: text line %q does not start with %q", r.ID, r.countsLine(), none)
		} else if first := Grouped(lw[:5], LongNouns)[0]; none == "" && !strings.HasPrefix(r.countsLine(), first+" · ") {
			t.Errorf("run %d: text line %q does not start with %q", r.ID, r.countsLine(), first)
		}
	}
}

// The counts missing for one reason are one phrase in the log's text ("graph breaks, recompiles, limit hits,
// CUDA-graph skips not in the log"), where each kind repeated "not in the log" (a line the TUI's runs list could
// not show at 80 columns), and every count keeps its own cell in the Markdown table and its own entry in the
// JSON (real runs: silenced-logging, silenced-rank, invalid-logs).
func TestCountsMissingForOneReasonAreOnePhrase(t *testing.T) {
	rec := "../../testdata/recorded/"
	store := storeOf(t, rec+"silenced-logging/runs/0001-breaks", rec+"silenced-rank/runs/0001-breaks",
		rec+"invalid-logs/runs/0001-custom")
	_, txt, md, js := logOf(t, store)
	for _, want := range []string{
		"graph breaks, recompiles, limit hits, CUDA-graph skips not in the log · 0 compile errors",
		"at least 1 graph break · recompiles, limit hits, CUDA-graph skips not in the log · 0 compile errors",
		"graph breaks, recompiles, CUDA-graph skips not logged · ≥0 limit hits · ≥0 compile errors",
	} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, txt.String())
		}
	}
	for _, want := range []string{
		"| not in the log | not in the log | not in the log | not in the log | 0 | 0 |",
		"| ≥1 | not in the log | not in the log | not in the log | 0 | 0 |",
		"| not logged | not logged | ≥0 | not logged | ≥0 | ≥1 |",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks the cells %q:\n%s", want, md.String())
		}
	}
	if n := strings.Count(js.String(), `"words": "recompiles not in the log"`); n != 2 {
		t.Errorf("JSON has %d entries \"recompiles not in the log\", want one a silenced run:\n%s", n, js.String())
	}
}

// logOf builds the log of store and writes it in every form: text (300 columns), Markdown and JSON.
func logOf(t *testing.T, store string) (s *Story, txt, md, js *bytes.Buffer) {
	t.Helper()
	s, err := Build(store)
	if err != nil {
		t.Fatal(err)
	}
	txt, md, js = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	WriteText(txt, s, text.Options{Width: 300})
	WriteMarkdown(md, s)
	if err := WriteJSON(js, s); err != nil {
		t.Fatal(err)
	}
	return s, txt, md, js
}
