package trace

import (
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// DDPOptimizer's split in a TORCH_TRACE file (torch/_dynamo/backends/distributed.py, DDPOptimizer.compile_fn, right
// after the ddp_graphs log's split message; real 2.14.1 and 2.6, testdata/recorded/ddp-optimizer/trace-214 and
// trace-26): one optimize_ddp_split_graph event, whose payload is the split graph's readable code, then one
// optimize_ddp_split_child event a submodule, named in its metadata, in the order of split_gm.named_modules(),
// all with the compile id of the graph split:
//
//	V1127 07:46:30.223000 13891 torch/_dynamo/backends/distributed.py:621] {"optimize_ddp_split_graph": {}, "rank": 0, "frame_id": 4, "frame_compile_id": 0, "attempt": 0, "has_payload": "c95d…"}
//		class GraphModule(torch.nn.Module):
//		    def forward(self, L_self_modules_layers_modules_0_parameters_weight_: "f32[512, 512]", …):
//		        …
//		        submod_0 = self.submod_0(l_x_, …);  l_x_ = … = None
//		        …
//		        return (submod_2,)
//
//		    class submod_0(torch.nn.Module):
//		        …
//	V1127 07:46:30.223000 13891 torch/_dynamo/backends/distributed.py:627] {"optimize_ddp_split_child": {"name": "submod_0"}, "rank": 0, "frame_id": 4, …}
//
// Together they are the ddp_graphs log's split message (ddpgraphs.go): one KindDDPGraph record of stage DDPSplit,
// its Calls the submodules the split graph's forward calls, its Submodules the children named, Complete when the
// forward's code was read to its return line. The submodules' compiles and the final graph have no event of
// their own.

// ddpTraceNames are the events of a DDPOptimizer split.
const (
	ddpTraceSplit = "optimize_ddp_split_graph"
	ddpTraceChild = "optimize_ddp_split_child"
)

// ddpSplitGraph makes the split record of an optimize_ddp_split_graph event; its children are added as they come.
func (st *traceState) ddpSplitGraph(env *envelope, payload []string, line int) {
	r := st.record(env, line, logparse.KindDDPGraph)
	r.Artifact, r.Era = ddpTraceSplit, st.era()
	r.Lines = append([]string(nil), payload...)
	g := &logparse.DDPGraph{Stage: logparse.DDPSplit}
	g.Calls, g.Complete = forwardCalls(payload)
	r.DDP = g
	st.ddpSplit = r
	st.emit(r)
}

// ddpSplitChild adds the submodule an optimize_ddp_split_child event names to the split it follows (the same
// compile); a child of no split read is dropped.
func (st *traceState) ddpSplitChild(env *envelope) {
	s := st.ddpSplit
	if s == nil || env.DDPSplitChild.Name == "" || env.compileID() != s.CompileID {
		return
	}
	s.DDP.Submodules = append(s.DDP.Submodules, env.DDPSplitChild.Name)
}

// forwardCalls reads a GraphModule's readable code: the submodules its forward calls ("submod_0 =
// self.submod_0(…)", at the forward's own indentation, not inside the nested classes after it), and whether
// the forward was read to its return line.
func forwardCalls(code []string) (calls []string, complete bool) {
	def, body := -1, -1 // the indentation of "def forward(" and of its body
	for _, l := range code {
		t := strings.TrimLeft(l, " ")
		if t == "" {
			continue
		}
		ind := len(l) - len(t)
		switch {
		case def < 0:
			if strings.HasPrefix(t, "def forward(") {
				def = ind
			}
			continue
		case ind <= def:
			return calls, complete // the forward ended: a nested class follows
		case body < 0:
			body = ind
		}
		if ind != body || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "return ") || t == "return" {
			complete = true
			continue
		}
		if c := selfCall(t); c != "" {
			calls = append(calls, c)
		}
	}
	return calls, complete
}

// selfCall is the submodule a line of code calls: "submod_0 = self.submod_0(…)" (with or without a type after
// the name) → "submod_0"; "" for any other line.
func selfCall(t string) string {
	_, rhs, ok := strings.Cut(t, " = self.")
	if !ok {
		return ""
	}
	name, _, ok := strings.Cut(rhs, "(")
	if !ok || name == "" || strings.ContainsFunc(name, func(c rune) bool {
		return !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
	}) {
		return ""
	}
	return name
}
