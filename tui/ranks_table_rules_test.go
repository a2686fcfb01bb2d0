package tui

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/story"
	"github.com/torchtriage/torchtriage/triage/text"
)

// reportPerRank is the text report's "Per rank" section of an analysis as cells of the Ranks view's table, rank
// by rank: each count's value ("3", "≥0", "≥1" for "at least 1", "–" where the report says no count stands, "0ᵖ"
// where it says a rank no log record names has none as its probe counted), in the report's order (breaks,
// recompiles, limit hits, skips, compile errors, runtime errors).
func reportPerRank(t *testing.T, a *triage.Analysis) map[int][]string {
	t.Helper()
	var b bytes.Buffer
	render.WriteReportText(&b, a, text.Options{Width: 1000})
	out := map[int][]string{}
	in := false
	for _, l := range strings.Split(b.String(), "\n") {
		switch {
		case l == "Per rank":
			in = true
			continue
		case !in:
			continue
		case strings.TrimSpace(l) == "":
			return out
		}
		who, counts, ok := strings.Cut(strings.TrimSpace(l), ": ")
		if !ok {
			t.Fatalf("Per rank line %q", l)
		}
		// "…; no log record names it: the 0s are as its probe counted (…)": its 0s are the probe's
		counts, _, probe := strings.Cut(counts, "; no log record names ")
		var cells []string
		for _, item := range strings.Split(counts, ", ") {
			c := reportCell(item)
			if probe && c != "–" {
				c = "0ᵖ"
			}
			cells = append(cells, c)
		}
		if len(cells) == 1 { // "counts not known: …", "nothing counted (no torch output)": no count stands
			cells = []string{"–", "–", "–", "–", "–", "–"}
		}
		if len(cells) != 6 {
			t.Fatalf("Per rank line %q: %d counts", l, len(cells))
		}
		for _, rk := range reportRanks(t, who) {
			out[rk] = cells
		}
	}
	return out
}

// reportCell is one count of a "Per rank" line as a table cell.
func reportCell(item string) string {
	if n, ok := strings.CutPrefix(item, "at least "); ok {
		return "≥" + strings.Fields(n)[0]
	}
	if v := strings.Fields(item)[0]; v[0] >= '0' && v[0] <= '9' || strings.HasPrefix(v, "≥") {
		return v
	}
	return "–" // "breaks not logged", "limit hits not in the log", "counts not known…"
}

// reportRanks reads "rank 3", "ranks 0,1", "ranks 0–3,5".
func reportRanks(t *testing.T, who string) []int {
	t.Helper()
	who = strings.TrimPrefix(strings.TrimPrefix(who, "ranks "), "rank ")
	var out []int
	for _, part := range strings.Split(who, ",") {
		lo, hi, rng := strings.Cut(part, "–")
		a, err := strconv.Atoi(lo)
		if err != nil {
			t.Fatalf("ranks %q", who)
		}
		b := a
		if rng {
			if b, err = strconv.Atoi(hi); err != nil {
				t.Fatalf("ranks %q", who)
			}
		}
		for r := a; r <= b; r++ {
			out = append(out, r)
		}
	}
	return out
}

// stripRanks is the ranks strip's counts of each rank, "r0 ≥1b ≥2rc": breaks and recompiles, "–" where the strip
// shows no count of a kind.
func stripRanks(strip string) map[int][2]string {
	out := map[int][2]string{}
	for _, part := range strings.Split(strip, " · ") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(part), "ranks "))
		if len(f) == 0 || len(f[0]) < 2 || f[0][0] != 'r' {
			continue
		}
		rk, err := strconv.Atoi(f[0][1:])
		if err != nil {
			continue
		}
		c := [2]string{"–", "–"}
		for _, x := range f[1:] {
			if v, ok := strings.CutSuffix(x, "rc"); ok {
				c[1] = v
			} else if v, ok := strings.CutSuffix(x, "b"); ok {
				c[0] = v
			}
		}
		out[rk] = c
	}
	return out
}

// twoRankItemLog is a real 2.14 log of a run without TORCH_LOGS (gb_recompile.no_torch_logs.log) as two ranks
// print it, rank 0 all of it, its Tensor.item() graph-break warning included (it prints whatever TORCH_LOGS says),
// rank 1 its recompile-limit hit only; the path as feedRun takes it (relative to testdata).
func twoRankItemLog(t *testing.T) string {
	t.Helper()
	path := testlogs.TwoRankItemLog(t, filepath.Join("..", "testdata", "fixtures"))
	abs, _ := filepath.Abs("testdata")
	rel, _ := filepath.Rel(abs, path)
	return rel
}

// The Ranks view's per-rank table words each rank's counts by the rules the report's "Per rank", the ranks strip,
// the runs list and the bringup log word them (story.Rules): a run that did not complete — stopped by torchtriage,
// or still running — counted only what it reached, so its counts are floors ("≥0"); a kind not logged, or not in
// the log, is no count ("–"). The table had rules of its own: lagging-rank's stopped run read "r0 0 0 0 0 0 0"
// where the report reads "rank 0: ≥0 breaks, ≥0 recompiles, …", a live two-rank run "r0 1 2 2" where the strip
// reads "r0 ≥1b ≥2rc", a live one without graph_breaks "0" breaks the report calls not logged, and it had no column
// for the report's CUDA-graph skips. A rank that printed no break while graph_breaks was off, beside one that
// printed a Tensor.item() break, has no count of breaks (the report's "breaks not logged"; the strip read "≥0b").
func TestRanksTableSaysWhatTheReportAndTheStripSay(t *testing.T) {
	type tcase struct {
		name string
		m    func() *Model
	}
	live := func(file, logs string, exit int) func() *Model {
		return func() *Model {
			m := liveModel(t, 120, 60)
			m.opt.spec.Nproc = 2
			feedRun(t, m, 1, file, "breaks", logs, exit)
			return m
		}
	}
	opened := func(name, run string) func() *Model {
		return func() *Model { return openModel(t, 120, 60, recordedRun(name, run)) }
	}
	for _, c := range []tcase{
		{"stopped after 1m0s (lagging-rank)", opened("lagging-rank", "0001-breaks")},
		{"stopped after 2m0s (stopped-dist-hang)", opened("stopped-dist-hang", "0002-breaks")},
		{"silenced rank", opened("silenced-rank", "0001-breaks")},
		{"a rank no record names (quiet-rank)", opened("quiet-rank", "0013-breaks")},
		{"live, two ranks", live("r05_dist_c10d.triage.log", "graph_breaks,recompiles", -1)},
		{"live, two ranks, graph_breaks off", live("r05_dist_c10d.guards.log", "guards,recompiles", -1)},
		{"exited, two ranks", live("r05_dist_c10d.triage.log", "graph_breaks,recompiles", 0)},
		{"exited, two ranks, graph_breaks off", live("r05_dist_c10d.guards.log", "guards,recompiles", 0)},
		{"exited, no TORCH_LOGS, rank 0's Tensor.item() break", live(twoRankItemLog(t), "", 0)},
		{"live, no TORCH_LOGS, rank 0's Tensor.item() break", live(twoRankItemLog(t), "", -1)},
	} {
		m := c.m()
		lines := strings.Split(plain(m), "\n")
		strip := stripRanks(lines[len(lines)-2])
		s := m.cur.snap
		report, rl := reportPerRank(t, s.analysis), story.RulesOf(s.analysis)
		press(m, "R")
		screen := plain(m)
		head := strings.Join(strings.Fields(lineWith(t, screen, "   rank  ")), " ")
		if want := "┃ rank breaks records recompiles limits skips compile err runtime err ┃"; head != want {
			t.Errorf("%s: the table's head %q, want %q (the report's kinds)", c.name, head, want)
		}
		if len(report) != len(s.ranks) {
			t.Errorf("%s: the report's Per rank has %d ranks, the run %d", c.name, len(report), len(s.ranks))
		}
		for _, rk := range s.ranks {
			row := rankRow(t, screen, "r"+strconv.Itoa(rk))[1:]
			rep, ok := report[rk]
			if !ok {
				t.Errorf("%s: rank %d is not in the report's Per rank", c.name, rk)
				continue
			}
			// the table's columns: breaks, records, recompiles, limits, skips, compile err, runtime err
			want := []string{rep[0], rep[0], rep[1], rep[2], rep[3], rep[4], rep[5]}
			if len(row) != len(want) {
				t.Errorf("%s: rank %d's row %q, want the report's %q", c.name, rk, row, rep)
				continue
			}
			// records: the report has none; by the same rules (Tensor.item()'s warning is a break of its rank
			// without a record of it in per_rank: no count where graph_breaks was off)
			if cw := rl.Word(story.CountGraphBreaks, s.perRank[rk].GraphBreakRecords, story.ShortNouns); cw.Counted() && s.counted(rk) {
				want[1] = cw.Value
			} else if !s.counted(rk) { // of a rank no record names, as its breaks: no break as its probe counted, no record of one
				want[1] = rep[0]
			} else {
				want[1] = "–"
			}
			for i, w := range want {
				if got := row[i]; got != w {
					t.Errorf("%s: rank %d's row %q, want the report's %q (cell %d: %q, want %q)", c.name, rk, row, rep, i, row[i], w)
					break
				}
			}
			// the strip shows no count of a rank no record names (not its probe's 0ᵖ: the Ranks view says that)
			if st, ok := strip[rk]; ok && s.counted(rk) && (st[0] != row[0] || st[1] != row[2]) {
				t.Errorf("%s: rank %d's row %q, the strip's %q", c.name, rk, row, st)
			}
		}
	}
}
