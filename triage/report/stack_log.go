package report

import (
	"maps"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// stackPlace is where one faulthandler stack dump shows a process of the program: the innermost frame of the
// program in its main thread (logparse.StackMains), and what it waits in there.
type stackPlace struct {
	rank, localRank int // the dump's [rankN]: and torchrun's [defaultN]: prefixes, -1 when absent
	File            string
	Line            int
	thread          string   // the main thread's id as the dump prints it ("0x00007fc74412c200"), "" when none
	wait            procWait // what it waits in (hang_wait.go)
}

// stackLog keeps the stack dumps' places, and which global rank each torchrun local rank's records name (a line
// "[default1]:[rank1]:…"), to give a dump under the tee prefix alone its rank.
type stackLog struct {
	Places []stackPlace
	local  map[int]int // local rank -> the global rank its records name; -2 when they name several
	// Interleaved counts the dump records whose processes wrote at the same moment, their lines mixed: no place is
	// read from them
	Interleaved int
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
	// each process's main thread: one record holds several processes' dumps when they share a pipe (torchrun
	// without --tee)
	var mains []logparse.StackThread
	interleaved, fatal := false, false
	if d := r.Dump; d != nil {
		mains, interleaved, fatal = d.Mains, d.Interleaved, d.Fatal
	}
	if interleaved {
		s.Interleaved++
		return
	}
	for _, m := range mains {
		if fatal { // a crash's dump: where the process died (StoppedAt's place), no wait
			break
		}
		w := waitOf(m.Frames)
		if w.User.File == "" {
			continue
		}
		w.User = cloneFrame(w.User)
		w.Op, w.Region = strings.Clone(w.Op), strings.Clone(w.Region)
		s.Places = append(s.Places, stackPlace{rank: r.Rank, localRank: r.LocalRank, File: w.User.File, Line: w.User.Line,
			thread: strings.Clone(m.ID), wait: w})
	}
	if len(mains) == 0 || fatal { // no main thread shown (a dump of other threads alone), or a crash: the program's frame it shows
		if f := r.StackAt; f != nil {
			s.Places = append(s.Places, stackPlace{rank: r.Rank, localRank: r.LocalRank, File: f.File, Line: f.Line})
		}
	}
}

func cloneFrame(f logparse.Frame) logparse.Frame {
	return logparse.Frame{File: strings.Clone(f.File), Line: f.Line, Func: strings.Clone(f.Func), Code: strings.Clone(f.Code)}
}

func (s stackLog) clone() stackLog {
	return stackLog{Places: slices.Clone(s.Places), local: maps.Clone(s.local), Interleaved: s.Interleaved}
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
