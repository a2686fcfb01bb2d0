package report

import (
	"math/bits"
	"slices"
)

// rankSet is a set of ranks: a bit per rank below 64, a map for the others (a set noted on every record). The
// zero value is ready.
type RankSet struct {
	low  uint64
	more map[int]bool
}

func (s *RankSet) Add(rank int) {
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
func (s *RankSet) Sorted() []int {
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
