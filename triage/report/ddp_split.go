package report

import (
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/playbooks"
)

// DDPOptimizer's splits. With torch.compile of a DDP-wrapped module, DDPOptimizer splits each graph Dynamo compiled
// of it at DDP's bucket boundaries, so that one bucket's allreduce can overlap the next one's backward: by design.
// No graph-break record says so; the ddp_graphs log prints the split (logparse.DDPGraph), TORCH_TRACE writes it
// (optimize_ddp_split_graph and its children: the same record), and the report shows it
// as a by-design finding (expected-ddp-optimizer) that no break count and no gate counts.

// KindDDPSplit is the finding kind of a graph DDPOptimizer split.
const KindDDPSplit = playbooks.KindDDPSplit

// DDPSplitSummary is one graph DDPOptimizer split, as the ddp_graphs log's split message shows it, on the ranks
// that printed the same split.
type DDPSplitSummary struct {
	CompileID string `json:"compile_id"` // the compile of the graph split ("4/0")
	// Submodules is how many submodules the split graph calls, each printed with its graph; -1 when the message does
	// not let them be counted (cut before its end, or sections that are not the submodules its graph calls)
	Submodules int      `json:"submodules"`
	Names      []string `json:"names"` // the submodules as the split graph calls them ("submod_0", …), when counted
	Records    int      `json:"records"`
	Ranks      []int    `json:"ranks"`

	Evidence []Evidence `json:"-"`
	rankSet  RankSet
	// fromLog, fromTrace: the ddp_graphs log, TORCH_TRACE's optimize_ddp_split_graph showed it (of a process both
	// show, only the log's is counted: addDDPGraph)
	fromLog, fromTrace bool
}

// addDDPGraph takes a KindDDPGraph record: the split is what the report shows. A split of the trace
// (optimize_ddp_split_graph) is held back to Report, like the trace's other records, and counted only where the
// text log of the same process showed no split of that compile: given both, the report shows it once.
func (a *Aggregator) addDDPGraph(r *logparse.Record) {
	if r.Rank >= 0 {
		a.ranks[r.Rank] = true
	}
	if r.DDP.Stage != logparse.DDPSplit {
		return
	}
	if r.Source == logparse.FromTrace {
		a.traceRec = append(a.traceRec, r)
		return
	}
	if !a.textOnly {
		a.Unseen.Add(a.dedupKey(r))
	}
	a.addDDPSplit(r)
}

// addDDPSplit folds a split message of the ddp_graphs log, or a split of TORCH_TRACE, into its summary: one per
// compile id and submodules.
func (a *Aggregator) addDDPSplit(r *logparse.Record) {
	cid := r.CompileID.String()
	n, names := -1, []string(nil)
	if r.SplitCounted() {
		n, names = len(r.DDP.Submodules), r.DDP.Submodules
	}
	key := cid + "\x00" + strconv.Itoa(n) + "\x00" + strings.Join(names, "\x00")
	if a.ddpSplits == nil {
		a.ddpSplits = map[string]*DDPSplitSummary{}
	}
	s := a.ddpSplits[key]
	if s == nil {
		s = &DDPSplitSummary{CompileID: a.names.of(cid), Submodules: n, Names: []string{}}
		for _, name := range names {
			s.Names = append(s.Names, a.names.of(name))
		}
		a.ddpSplits[key] = s
	}
	s.Records++
	if r.Source == logparse.FromTrace {
		s.fromTrace = true
	} else {
		s.fromLog = true
	}
	if r.Rank >= 0 {
		s.rankSet.Add(r.Rank)
	}
	if len(s.Evidence) < MaxEvidence {
		s.Evidence = append(s.Evidence, a.evidenceOwned(r, "", 0))
	}
}

// ddpSplitSummaries lists the splits by compile id, then submodules.
func (a *Aggregator) ddpSplitSummaries() []*DDPSplitSummary {
	out := make([]*DDPSplitSummary, 0, len(a.ddpSplits))
	for _, s := range a.ddpSplits {
		s.Ranks = s.rankSet.Sorted()
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.CompileID != y.CompileID {
			return x.CompileID < y.CompileID
		}
		if x.Submodules != y.Submodules {
			return x.Submodules > y.Submodules
		}
		return strings.Join(x.Names, ",") < strings.Join(y.Names, ",")
	})
	return out
}

// what is how a split reads: "into 3 submodules", or, when the log does not let them be counted, what it
// shows.
func (s *DDPSplitSummary) What() string {
	if s.Submodules < 0 {
		if !s.fromTrace {
			return "(its ddp_graphs message is cut or does not list the submodules its split graph calls: not counted)"
		}
		return "(what " + s.Source() + " shows of it is cut or does not list the submodules its split graph calls: " +
			"not counted)"
	}
	return "into " + Plural(s.Submodules, "submodule")
}

// source is what showed the split: "ddp_graphs log", "TORCH_TRACE" or "ddp_graphs log and TORCH_TRACE".
func (s *DDPSplitSummary) Source() string {
	switch {
	case s.fromLog && s.fromTrace:
		return "ddp_graphs log and TORCH_TRACE"
	case s.fromTrace:
		return "TORCH_TRACE"
	}
	return "ddp_graphs log"
}
