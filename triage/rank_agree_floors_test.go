package triage_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// syntheticRanks copies the recorded run rec into a temporary directory named synthetic_<name> and edits only its
// probe files: every probe's world_size becomes world, and each rank of add gets a probe file of its own, a copy of
// rank 1's with its rank and pid changed and its counters edited by add[rank]. The ranks added print no torch
// record (no log line names them): ranks no log record names, known from their probes. The recorded runs hold no
// such case, so the copy says it is synthetic.
func syntheticRanks(t *testing.T, rec, name string, world int, add map[int]func(counters map[string]any)) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "synthetic_"+name)
	if err := os.CopyFS(dir, os.DirFS(rec)); err != nil {
		t.Fatal(err)
	}
	probes, _ := filepath.Glob(filepath.Join(dir, "probe", "rank*-*.json"))
	var rank1 map[string]any
	for _, p := range probes {
		doc := readJSONDoc(t, p)
		doc["world_size"] = world
		if doc["rank"] == 1.0 {
			rank1 = doc
		}
		writeJSON(t, p, doc)
	}
	if rank1 == nil {
		t.Fatalf("no probe of rank 1 in %s", rec)
	}
	for r, edit := range add {
		var doc map[string]any
		b, _ := json.Marshal(rank1)
		_ = json.Unmarshal(b, &doc)
		pid := 90000 + r
		doc["rank"], doc["local_rank"], doc["pid"] = r, r, pid
		edit(doc["counters"].(map[string]any))
		writeJSON(t, filepath.Join(dir, "probe", fmt.Sprintf("rank%d-%d.json", r, pid)), doc)
	}
	return dir
}

// readJSONDoc reads a JSON object file (a probe file, meta.json) for a test to edit.
func readJSONDoc(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	var doc map[string]any
	if err == nil {
		err = json.Unmarshal(b, &doc)
	}
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func writeJSON(t *testing.T, path string, doc any) {
	t.Helper()
	b, err := json.Marshal(doc)
	if err == nil {
		err = os.WriteFile(path, b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// noBreak makes a probe's counters count no graph break (the frames it compiled kept).
func noBreak(c map[string]any) { delete(c, "graph_break"); delete(c, "resumes") }

// Ranks 0 and 1 logged the same two graph breaks (real 2.14.1, testdata/recorded/ddp-compile 0012); rank 2's probe
// counted them, yet its log shows none (its program silenced logging), so every count is a floor and the agreement
// of ranks 0,1 is not earned; rank 3's probe counted no graph break at all. That difference is earned: ranks 0,1
// had at least those breaks, rank 3 exactly none. The rank agreement read "not compared" as a whole, and
// --ranks-agree passed as "no evidence". Now it says both parts, in the same words in the text, the Markdown, the
// JSON (typed: others_not_compared) and the gate, which fails on rank 3's difference alone.
func TestEarnedDifferenceFromRanksNotCompared(t *testing.T) {
	rec := filepath.Join("..", "testdata", "recorded", "ddp-compile", "runs", "0012-breaks")
	dir := syntheticRanks(t, rec, "ddp-compile-silenced-and-breakless-ranks", 4,
		map[int]func(map[string]any){2: func(map[string]any) {}, 3: noBreak})
	const differ = "rank 3 differs from ranks 0,1: missing graph break "
	const others = "ranks 0–2 not compared: the log lacks what the probe counted (rank 2 counted 2 graph breaks its log does not show)"
	out := triagetest.ReportText(t, 1000, dir)
	l := strings.TrimPrefix(lineWith(out, "Rank agreement:"), "Rank agreement: ")
	if !strings.HasPrefix(l, differ) || !strings.Contains(l, "rank 3 as its probe counted (no log record names it): no graph break") ||
		!strings.HasSuffix(l, "; "+others) {
		t.Fatalf("rank agreement %q\nwant %q …; %q", l, differ, others)
	}
	md := triagetest.Render(t, triagetest.ReportPaths(t, dir), "markdown", 80)
	if !strings.Contains(md, "**Rank agreement:** "+render.MarkdownEscape(l)+"\n") {
		t.Errorf("markdown:\n%s", md)
	}
	js := triagetest.ReportJSON(t, dir)
	var doc struct {
		RA struct {
			Agree       bool   `json:"agree"`
			Summary     string `json:"summary"`
			NotCompared string `json:"not_compared"`
			Others      []struct {
				Ranks string `json:"ranks"`
				Size  int    `json:"size"`
				Why   string `json:"why"`
			} `json:"others_not_compared"`
			FromProbe []struct {
				Rank int `json:"rank"`
			} `json:"from_probe"`
			Groups []struct {
				Ranks   string   `json:"ranks"`
				Missing []string `json:"missing"`
			} `json:"groups"`
		} `json:"rank_agreement"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	ra := doc.RA
	if ra.Summary != l || ra.Agree || ra.NotCompared != "" || len(ra.Others) != 1 || ra.Others[0].Ranks != "0-2" || ra.Others[0].Size != 3 ||
		!strings.HasPrefix(others, "ranks 0–2 not compared: "+ra.Others[0].Why) || len(ra.FromProbe) != 1 || ra.FromProbe[0].Rank != 3 ||
		len(ra.Groups) != 2 || ra.Groups[0].Ranks+" "+ra.Groups[1].Ranks != "0,1 3" || len(ra.Groups[1].Missing) != 2 {
		t.Errorf("json rank_agreement %+v", ra)
	}
	code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir)
	if f := lineWith(out, "FAIL [--ranks-agree]"); code != gate.ExitFailed || !strings.Contains(f, differ) || !strings.Contains(f, others) {
		t.Errorf("check: exit %d\n%s", code, out)
	}
}

// The other way round, no difference is earned: ranks 0 and 1 of a run the tool stopped (real 2.14.1,
// testdata/recorded/stopped-dist-hang 0002) logged no graph break, at least none (their counts are floors), and
// rank 2's probe counted none: what ranks 0,1 never reached is not known, so nothing is said to differ (nor to
// agree), and --ranks-agree fails on nothing (check: the run did not complete).
func TestNoEarnedDifferenceFromFloorsOfNone(t *testing.T) {
	rec := filepath.Join("..", "testdata", "recorded", "stopped-dist-hang", "runs", "0002-breaks")
	dir := syntheticRanks(t, rec, "stopped-dist-hang-breakless-rank", 3, map[int]func(map[string]any){2: noBreak})
	out := triagetest.ReportText(t, 1000, dir)
	if l := lineWith(out, "Rank agreement:"); !strings.HasPrefix(l, "Rank agreement: not compared: the run did not complete") ||
		strings.Contains(l, "differs") {
		t.Errorf("rank agreement %q", l)
	}
	if code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir); code != gate.ExitDidNotComplete || strings.Contains(out, "FAIL [--ranks-agree]") {
		t.Errorf("check: exit %d\n%s%s", code, out, errb)
	}
}
