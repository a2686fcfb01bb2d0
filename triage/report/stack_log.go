package report

import (
	"maps"
	"slices"

	"github.com/torchtriage/torchtriage/logparse"
)

// stackPlace is where one faulthandler stack dump shows a process of the program (logparse.StackFrame).
type stackPlace struct {
	rank, localRank int // the dump's [rankN]: and torchrun's [defaultN]: prefixes, -1 when absent
	File            string
	Line            int
}

// stackLog keeps the stack dumps' places, and which global rank each torchrun local rank's records name (a line
// "[default1]:[rank1]:…"), to give a dump under the tee prefix alone its rank.
type stackLog struct {
	Places []stackPlace
	local  map[int]int // local rank -> the global rank its records name; -2 when they name several
}

func (s *stackLog) note(r *logparse.Record) {
	if r.LocalRank >= 0 && r.Rank >= 0 {
		if g, ok := s.local[r.LocalRank]; !ok {
			if s.local == nil {
				s.local = map[int]int{}
			}
			s.local[r.LocalRank] = r.Rank
		} else if g != r.Rank {
			s.local[r.LocalRank] = -2
		}
	}
	if r.Kind != logparse.KindStack {
		return
	}
	if f := r.StackAt; f != nil {
		s.Places = append(s.Places, stackPlace{rank: r.Rank, localRank: r.LocalRank, File: f.File, Line: f.Line})
	}
}

func (s stackLog) clone() stackLog {
	return stackLog{Places: slices.Clone(s.Places), local: maps.Clone(s.local)}
}

// rankOf is the global rank of a dump: its own prefix's, else the one its local rank's records name, else, in a
// one-node job the tool launched (world processes, every local rank the log pairs with a global rank paired with
// itself), its local rank: torchrun numbers one node's ranks as their local ranks. -1 when not known.
func (s stackLog) RankOf(p stackPlace, world int) int {
	switch {
	case p.rank >= 0:
		return p.rank
	case p.localRank < 0:
		return -1
	}
	if g, ok := s.local[p.localRank]; ok {
		return max(g, -1)
	}
	for l, g := range s.local {
		if l != g {
			return -1
		}
	}
	if p.localRank < world {
		return p.localRank
	}
	return -1
}
