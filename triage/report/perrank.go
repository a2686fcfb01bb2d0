package report

import (
	"cmp"
	"math"
	"slices"

	"github.com/torchtriage/torchtriage/logparse"
)

// rankStat is what one rank contributed to one finding (perRank.snapshot's copy, and the findings').
type RankStat struct {
	N     int                // records
	Exp   int                // of which expected (automatic dynamic's first recompile of a dimension)
	First logparse.CompileID // compile id of the earliest record (by input line)
	Last  logparse.CompileID // compile id of the latest record
}

// rankCell is a rankStat as perRank keeps it while records come, with the input lines of the records that gave
// First and Last: in numbers of 32 bits, 48 bytes where a rankStat and its lines took 96 (one for each rank of
// each of thousands of findings: 18 MB of bench/many.sh's 4x file). A record whose numbers do not fit makes its
// perRank wide (widen).
type rankCell struct {
	n, exp         int32
	first, last    cid32
	line, lastLine int32
}

// cid32 is a logparse.CompileID in numbers of 32 bits.
type cid32 struct{ autograd, frame, compile, attempt int32 }

// toCid32 is c in 32 bits; false when a number does not fit.
func toCid32(c logparse.CompileID) (cid32, bool) {
	x := cid32{int32(c.Autograd), int32(c.Frame), int32(c.Compile), int32(c.Attempt)}
	return x, x.cid() == c
}

func (c cid32) cid() logparse.CompileID {
	return logparse.CompileID{Autograd: int(c.autograd), Frame: int(c.frame), Compile: int(c.compile), Attempt: int(c.attempt)}
}

// lineStat is a rankStat with the input lines of the records that gave First and Last: a rank of a wide perRank.
type lineStat struct {
	RankStat
	line, last int
}

// takes says whether a record takes the place of the one that gave First (or Last): one with a compile id
// (valid) over one without, else by input line; by is cmp.Compare of the record's line and the one kept (for
// Last, of the one kept and the record's: the later line wins).
func takes(valid, keptValid bool, by int) bool {
	return valid && !keptValid || valid == keptValid && by < 0
}

func (c *rankCell) note(id cid32, line int32) {
	if c.n == 0 {
		*c = rankCell{first: id, last: id, line: line, lastLine: line}
	} else {
		valid := id.frame >= 0
		if takes(valid, c.first.frame >= 0, cmp.Compare(line, c.line)) {
			c.first, c.line = id, line
		}
		if takes(valid, c.last.frame >= 0, cmp.Compare(c.lastLine, line)) {
			c.last, c.lastLine = id, line
		}
	}
	c.n++
}

func (st *lineStat) note(cid logparse.CompileID, line int) {
	if st.N == 0 {
		*st = lineStat{RankStat: RankStat{First: cid, Last: cid}, line: line, last: line}
	} else {
		if takes(cid.Valid(), st.First.Valid(), cmp.Compare(line, st.line)) {
			st.First, st.line = cid, line
		}
		if takes(cid.Valid(), st.Last.Valid(), cmp.Compare(st.last, line)) {
			st.Last, st.last = cid, line
		}
	}
	st.N++
}

func (c *rankCell) stat() RankStat {
	return RankStat{N: int(c.n), Exp: int(c.exp), First: c.first.cid(), Last: c.last.cid()}
}

// perRank is keyed by rank (-1: a single process without rank). Every record of a finding notes its rank, so
// the usual ranks (0 to denseRanks-1) are a slice of cells indexed by rank, not a map: one allocation for a job's
// ranks and no hashing per record; ranks past them (a thousand-rank job) go to a map, and so does every rank once
// a record's numbers do not fit a cell (wide). The zero value is ready.
type perRank struct {
	solo  rankCell   // rank -1; n == 0: none
	dense []rankCell // index rank; n == 0: the rank has no record
	more  map[int]*lineStat
	wide  bool
}

// denseRanks bounds the slice of perRank (ranks 0 to 63).
const denseRanks = 64

// cell is the rank's cell, added (n == 0) when it has none; nil for a rank the map keeps.
func (p *perRank) cell(rank int) *rankCell {
	switch {
	case p.wide || rank < -1 || rank >= denseRanks:
		return nil
	case rank == -1:
		return &p.solo
	}
	if rank >= len(p.dense) {
		if rank >= cap(p.dense) { // 8 ranks at first (a node), doubling
			p.dense = slices.Grow(p.dense, min(max(rank+1, 2*cap(p.dense), 8), denseRanks)-len(p.dense))
		}
		p.dense = p.dense[:rank+1]
	}
	return &p.dense[rank]
}

// kept is the rank's cell or, for a rank the map keeps, its lineStat; both nil when it has no record.
func (p *perRank) kept(rank int) (*rankCell, *lineStat) {
	var c *rankCell
	switch {
	case p.wide || rank < -1 || rank >= denseRanks:
		return nil, p.more[rank]
	case rank == -1:
		c = &p.solo
	case rank < len(p.dense):
		c = &p.dense[rank]
	}
	if c == nil || c.n == 0 {
		return nil, nil
	}
	return c, nil
}

func (p *perRank) note(r *logparse.Record) {
	if c := p.cell(r.Rank); c != nil {
		id, ok := toCid32(r.CompileID)
		if line := int32(r.FirstLine); ok && int(line) == r.FirstLine && c.n < math.MaxInt32 {
			c.note(id, line)
			return
		}
		p.widen()
	}
	st := p.more[r.Rank]
	if st == nil {
		if p.more == nil {
			p.more = map[int]*lineStat{}
		}
		st = &lineStat{}
		p.more[r.Rank] = st
	}
	st.note(r.CompileID, r.FirstLine)
}

// widen moves every rank's cell to the map: a record's numbers do not fit one.
func (p *perRank) widen() {
	m := make(map[int]*lineStat, p.len())
	p.cells(func(rank int, c *rankCell) {
		m[rank] = &lineStat{RankStat: c.stat(), line: int(c.line), last: int(c.lastLine)}
	})
	for r, st := range p.more {
		m[r] = st
	}
	p.solo, p.dense, p.more, p.wide = rankCell{}, nil, m, true
}

// records is the number of the rank's records.
func (p *perRank) records(rank int) int {
	c, st := p.kept(rank)
	switch {
	case c != nil:
		return int(c.n)
	case st != nil:
		return st.N
	}
	return 0
}

// stat is the rank's stat; false when it has no record.
func (p *perRank) stat(rank int) (RankStat, bool) {
	c, st := p.kept(rank)
	switch {
	case c != nil:
		return c.stat(), true
	case st != nil:
		return st.RankStat, true
	}
	return RankStat{}, false
}

// addExp adds d to the expected records of a rank with a record.
func (p *perRank) addExp(rank, d int) {
	if c, st := p.kept(rank); c != nil {
		c.exp += int32(d) // at most n: it fits
	} else if st != nil {
		st.Exp += d
	}
}

// len is the number of ranks with a record.
func (p *perRank) len() int {
	n := 0
	p.each(func(int, RankStat) { n++ })
	return n
}

// cells calls fn for every rank with a record that a cell keeps: -1, then the dense ranks in order.
func (p *perRank) cells(fn func(rank int, c *rankCell)) {
	if p.solo.n > 0 {
		fn(-1, &p.solo)
	}
	for i := range p.dense {
		if c := &p.dense[i]; c.n > 0 {
			fn(i, c)
		}
	}
}

// each calls fn for every rank with a record and its stat (-1 and the dense ranks in order, then the others in no
// order).
func (p *perRank) each(fn func(rank int, st RankStat)) {
	p.cells(func(rank int, c *rankCell) { fn(rank, c.stat()) })
	for r, st := range p.more {
		fn(r, st.RankStat)
	}
}

// snapshot copies every rank's stat.
func (p *perRank) Snapshot() map[int]RankStat {
	out := make(map[int]RankStat, p.len())
	p.each(func(rank int, st RankStat) { out[rank] = st })
	return out
}

// statN is a rankStat of n records whose compile ids are not known.
func StatN(n int) RankStat {
	return RankStat{N: n, First: logparse.NoCompileID, Last: logparse.NoCompileID}
}

// add counts one record with a compile id (ordered by compile id where input lines are not known).
func (st *RankStat) Add(cid logparse.CompileID) {
	st.N++
	if !cid.Valid() {
		return
	}
	if !st.First.Valid() || CidLess(cid, st.First) {
		st.First = cid
	}
	if !st.Last.Valid() || CidLess(st.Last, cid) {
		st.Last = cid
	}
}
