package logparse

import (
	"slices"
	"strings"
)

// The ddp_graphs log (TORCH_LOGS=ddp_graphs: torch/_dynamo/backends/distributed.py's artifact logger) prints the
// graphs of DDPOptimizer, which splits a graph Dynamo compiled of a DDP-wrapped module at DDP's bucket boundaries.
// Each message starts with a newline, so its first line is the log prefix and an empty message; every line of it
// carries the same prefix. Real 2.14.1 and 2.6 (testdata/recorded/ddp-optimizer), three messages a split graph:
//
//	[rank0]:V1127 06:39:06.5… 3304 torch/_dynamo/backends/distributed.py:619] [4/0] [__ddp_graphs]
//	[rank0]:V1127 06:39:06.5… 3304 torch/_dynamo/backends/distributed.py:619] [4/0] [__ddp_graphs] ---orig graph---
//	… the graph Dynamo compiled, then "---split graph---": the graph calling call_module[target=submod_0] …, then
//	"---submod_0 graph---" … one section a submodule, and "---------------" (DDPOptimizer.compile_fn's debug_str)
//
// then, compiling each submodule, "---submod_0 graph---" and its graph alone (SubmodCompiler.run_node), and at the
// end "---final graph---": the split graph calling compiled_submod_0 …, and "---------------". A graph of one bucket
// is not split and prints none of them.

// DDPGraphStage is which ddp_graphs message a KindDDPGraph record is.
type DDPGraphStage uint8

// ddp_graphs messages.
const (
	DDPSplit     DDPGraphStage = iota // "---orig graph---", "---split graph---", a "---submod_K graph---" each, "---------------"
	DDPSubmodule                      // "---submod_K graph---" alone: DDPOptimizer compiling that submodule
	DDPFinal                          // "---final graph---": the split graph with its submodules compiled
)

var ddpStageNames = [...]string{"split", "submodule", "final"}

func (s DDPGraphStage) String() string {
	if int(s) < len(ddpStageNames) {
		return ddpStageNames[s]
	}
	return "unknown"
}

// DDPGraph is the payload of a KindDDPGraph record: one message of the ddp_graphs log, about the graph of the
// compile whose id the record carries.
type DDPGraph struct {
	Stage DDPGraphStage
	// Submodules: of a DDPSplit, the names of its "---NAME graph---" sections after the split graph ("submod_0", …),
	// in order; of a DDPSubmodule, the one it compiles (two of one call site within a millisecond share a prefix:
	// one record, both names)
	Submodules []string
	// Calls are the call_module targets of the split graph (DDPSplit: "submod_0", …) or of the final graph
	// (DDPFinal: "compiled_submod_0", …), in order
	Calls []string
	// Complete: the message reached its closing "---------------" line (DDPSplit, DDPFinal)
	Complete bool
}

// SplitCounted reports a DDPSplit whose submodules the record lets one count: the message is whole (its closing
// line read, no line cut) and the sections it prints are the submodules its split graph calls.
func (r *Record) SplitCounted() bool {
	g := r.DDP
	return g != nil && g.Stage == DDPSplit && g.Complete && !r.Truncated && len(g.Submodules) > 0 &&
		slices.Equal(g.Submodules, g.Calls)
}

// ddpSection reads "---NAME graph---", the head of one graph of a ddp_graphs message.
func ddpSection(l string) (string, bool) {
	name, ok := strings.CutPrefix(l, "---")
	if !ok {
		return "", false
	}
	name, ok = strings.CutSuffix(name, " graph---")
	if !ok || name == "" || strings.ContainsAny(name, " -") {
		return "", false
	}
	return name, true
}

// ddpEnd is the line that closes a split or final message.
const ddpEnd = "---------------"

// callModuleTarget is the target of an FX graph line "%submod_0 : [num_users=1] = call_module[target=submod_0](…)".
func callModuleTarget(l string) string {
	_, rest, ok := strings.Cut(l, " = call_module[target=")
	if !ok {
		return ""
	}
	t, _, ok := strings.Cut(rest, "]")
	if !ok {
		return ""
	}
	return t
}

// parseDDPGraph reads a ddp_graphs message (its first line the empty one); false when it is not one of the
// messages above.
func parseDDPGraph(lines []string) (*DDPGraph, bool) {
	if len(lines) < 2 || lines[0] != "" {
		return nil, false
	}
	first, ok := ddpSection(lines[1])
	if !ok {
		return nil, false
	}
	g := &DDPGraph{}
	switch first {
	case "orig":
		g.Stage = DDPSplit
	case "final":
		g.Stage = DDPFinal
	case "split":
		return nil, false // a split graph is printed after the original one
	default:
		g.Stage = DDPSubmodule
	}
	section, split := "", false // split: the split graph's section was read (the submodules' follow it)
	for _, l := range lines[1:] {
		if name, ok := ddpSection(l); ok {
			section = name
			switch name {
			case "orig", "final":
			case "split":
				split = true
			default:
				if g.Stage == DDPSubmodule || g.Stage == DDPSplit && split {
					g.Submodules = append(g.Submodules, name)
				}
			}
			continue
		}
		if l == ddpEnd {
			if g.Stage != DDPSubmodule {
				g.Complete = true
			}
			section = ""
			continue
		}
		if section == "split" && g.Stage == DDPSplit || section == "final" && g.Stage == DDPFinal {
			if t := callModuleTarget(l); t != "" {
				g.Calls = append(g.Calls, t)
			}
		}
	}
	return g, true
}
