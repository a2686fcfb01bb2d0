package tui

import (
	"strings"
	"testing"
)

// The strip under the lists words a live run's counts as the runs list and the bringup log do: floors ("≥3
// breaks") while it runs, since what it has not reached is not counted, and "no torch output yet" before torch
// printed anything. It read "1 process · 0 breaks · 0 recompiles" of a live run that had printed nothing from
// torch, and exact counts ("r0 1b 2rc") of one still going; a run that exited keeps its exact counts.
func TestRanksStripOfALiveRunSaysWhatTheRunsListSays(t *testing.T) {
	for _, c := range []struct {
		name, file string
		exit       int
		want, row  string // the strip's words, and the runs list row's
		bad        []string
	}{
		{"live, no torch output yet", "", -1, " no torch output yet", "no torch output yet", []string{"0 breaks", "0 recompiles"}},
		{"live", "gb_recompile.triage.log", -1, " 1 process · ≥3 breaks · ≥7 recompiles", "≥3 breaks · ≥7 recompiles", nil},
		{"live, two ranks", "r05_dist_c10d.triage.log", -1, " ranks r0 ≥1b ≥2rc · r1 ≥0b ≥1rc", "≥1 break · ≥3 recompiles", []string{"r0 1b"}},
		{"exited", "gb_recompile.triage.log", 0, " 1 process · 3 breaks · 7 recompiles", "3 breaks · 7 recompiles", nil},
	} {
		m := liveModel(t, 140, 32)
		r := feedRun(t, m, 1, c.file, "breaks", "graph_breaks,recompiles", c.exit)
		lines := strings.Split(plain(m), "\n")
		strip := lines[len(lines)-2]
		if !strings.HasPrefix(strip, c.want) {
			t.Errorf("%s: strip %q, want it to start %q", c.name, strip, c.want)
		}
		for _, bad := range c.bad {
			if strings.Contains(strip, bad) {
				t.Errorf("%s: strip %q says %q", c.name, strip, bad)
			}
		}
		if row := rowCounts(runRow{id: r.id, view: r}); !strings.HasPrefix(row, c.row) {
			t.Errorf("%s: the runs list says %q, want it to start %q", c.name, row, c.row)
		}
	}
}
