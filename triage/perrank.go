package triage

import (
	"math/bits"
	"slices"

	"github.com/torchtriage/torchtriage/logparse"
)

// rankStat is what one rank contributed to one finding.
type rankStat struct {
	N     int                // records
	Exp   int                // of which expected (automatic dynamic's first recompile of a dimension)
	First logparse.CompileID // compile id of the earliest record (by input line)
	Last  logparse.CompileID // compile id of the latest record
	line  int
	last  int
}

// perRank is keyed by rank (-1: a single process without rank). Every record of a finding notes its rank, so
// the usual ranks (0 to denseRanks-1) are a slice indexed by rank, not a map: one allocation for a job's ranks
// and no hashing per record; ranks past them (a thousand-rank job) go to a map. The zero value is ready.
type perRank struct {
	solo  rankStat   // rank -1; N == 0: none
	dense []rankStat // index rank; N == 0: the rank has no record
	more  map[int]*rankStat
}

// denseRanks bounds the slice of perRank (ranks 0 to 63).
const denseRanks = 64

// at is the rank's stat, nil when it has no record.
func (p *perRank) at(rank int) *rankStat {
	var st *rankStat
	switch {
	case rank == -1:
		st = &p.solo
	case rank >= 0 && rank < len(p.dense):
		st = &p.dense[rank]
	case rank >= 0 && rank < denseRanks:
		return nil
	default:
		return p.more[rank]
	}
	if st.N == 0 {
		return nil
	}
	return st
}

// slot is the rank's stat, added (N == 0) when it has none.
func (p *perRank) slot(rank int) *rankStat {
	var st *rankStat
	switch {
	case rank == -1:
		st = &p.solo
	case rank >= 0 && rank < denseRanks:
		if rank >= len(p.dense) {
			if rank >= cap(p.dense) { // 8 ranks at first (a node), doubling
				p.dense = slices.Grow(p.dense, min(max(rank+1, 2*cap(p.dense), 8), denseRanks)-len(p.dense))
			}
			p.dense = p.dense[:rank+1]
		}
		st = &p.dense[rank]
	default:
		if st = p.more[rank]; st == nil {
			if p.more == nil {
				p.more = map[int]*rankStat{}
			}
			st = &rankStat{}
			p.more[rank] = st
		}
	}
	return st
}

// len is the number of ranks with a record.
func (p *perRank) len() int {
	n := 0
	p.each(func(int, *rankStat) { n++ })
	return n
}

// each calls fn for every rank with a record (-1 and the dense ranks in order, then the others in no order).
func (p *perRank) each(fn func(rank int, st *rankStat)) {
	if p.solo.N > 0 {
		fn(-1, &p.solo)
	}
	for i := range p.dense {
		if p.dense[i].N > 0 {
			fn(i, &p.dense[i])
		}
	}
	for r, st := range p.more {
		fn(r, st)
	}
}

func (p *perRank) note(r *logparse.Record) {
	st := p.slot(r.Rank)
	if st.N == 0 {
		*st = rankStat{First: r.CompileID, line: r.FirstLine, Last: r.CompileID, last: r.FirstLine}
	} else {
		if (r.CompileID.Valid() && !st.First.Valid()) || (r.CompileID.Valid() == st.First.Valid() && r.FirstLine < st.line) {
			st.First, st.line = r.CompileID, r.FirstLine
		}
		if (r.CompileID.Valid() && !st.Last.Valid()) || (r.CompileID.Valid() == st.Last.Valid() && r.FirstLine > st.last) {
			st.Last, st.last = r.CompileID, r.FirstLine
		}
	}
	st.N++
}

// rankSet is a set of ranks: a bit per rank below 64, a map for the others (a set noted on every record). The
// zero value is ready.
type rankSet struct {
	low  uint64
	more map[int]bool
}

func (s *rankSet) add(rank int) {
	if rank >= 0 && rank < 64 {
		s.low |= 1 << rank
		return
	}
	if s.more == nil {
		s.more = map[int]bool{}
	}
	s.more[rank] = true
}

// sorted lists the ranks in order (a new slice, never nil).
func (s *rankSet) sorted() []int {
	out := make([]int, 0, bits.OnesCount64(s.low)+len(s.more))
	for low := s.low; low != 0; low &= low - 1 {
		out = append(out, bits.TrailingZeros64(low))
	}
	if len(s.more) > 0 {
		for r := range s.more {
			out = append(out, r)
		}
		slices.Sort(out)
	}
	return out
}

// statN is a rankStat of n records whose compile ids are not known.
func statN(n int) rankStat {
	return rankStat{N: n, First: logparse.NoCompileID, Last: logparse.NoCompileID, line: 1 << 30}
}

// add counts one record with a compile id (ordered by compile id where input lines are not known).
func (st *rankStat) add(cid logparse.CompileID) {
	st.N++
	if !cid.Valid() {
		return
	}
	if !st.First.Valid() || cidLess(cid, st.First) {
		st.First = cid
	}
	if !st.Last.Valid() || cidLess(st.Last, cid) {
		st.Last = cid
	}
}

func (p *perRank) snapshot() map[int]rankStat {
	out := make(map[int]rankStat, p.len())
	p.each(func(rank int, st *rankStat) { out[rank] = *st })
	return out
}
