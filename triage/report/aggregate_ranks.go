package report

import "strconv"

// perRankCounts puts each rank's counts in out, its graph breaks among them: a rank's distinct breaks are those
// whose records name it (not a set per rank noted on every record), tallied in one pass over the breaks (a list
// of them per rank was 1.2 MB of bench/many.sh's report).
func (a *Aggregator) perRankCounts(out map[string]Counts) {
	type tally struct {
		c     Counts
		sites map[string]bool // the sites of the rank's breaks, only where a warning's site needs them
	}
	tallies := make(map[int]*tally, len(a.perRank))
	for rank, ra := range a.perRank {
		t := &tally{c: ra.c}
		t.c.GraphBreaks = 0
		if len(ra.items) > 0 {
			t.sites = map[string]bool{}
		}
		tallies[rank] = t
	}
	for _, b := range a.breaks {
		var sites []string // the break's sites, made once for all its ranks that need them
		b.ranks.each(func(rank int, st RankStat) {
			t := tallies[rank] // nil for rank -1: no rank's counts
			if t == nil {
				return
			}
			t.c.GraphBreaks++
			t.c.GraphBreakRecords += st.N
			if t.sites != nil {
				if sites == nil {
					sites = breakSites(b)
				}
				for _, s := range sites {
					t.sites[s] = true
				}
			}
		})
	}
	for rank, t := range tallies {
		for site := range a.perRank[rank].items {
			if !t.sites[site] { // a break the rank's warning alone shows: its records are the rank's too
				t.c.GraphBreaks++
				if b := a.items[site]; b != nil {
					t.c.GraphBreakRecords += b.rankRecords(rank)
				}
			}
		}
		out[strconv.Itoa(rank)] = t.c
	}
}
