package trace

import (
	"cmp"
	"encoding/json"
	"slices"

	"github.com/torchtriage/torchtriage/logparse"
)

// A TORCH_TRACE file records each symbol a compile makes, whatever TORCH_LOGS says: symbolic_shapes.py's
// create_symbol and create_unbacked_symbol events, the compile id in the envelope (real 2.6, 2.11 and 2.14 traces,
// testdata/fixtures/torch-*/*.trace):
//
//	V1121 07:49:23.697000 2609 torch/fx/experimental/symbolic_shapes.py:4434] {"create_symbol": {"symbol": "s0", "val": "9", "vr": "[2, int_oo]", "source": "L['x'].size()[0]", "user_stack": […], "stack": […]}, "frame_id": 0, "frame_compile_id": 1, "attempt": 0}
//	V1123 03:16:38.956000 534 torch/fx/experimental/symbolic_shapes.py:5010] {"create_unbacked_symbol": {"symbol": "zuf0", "node_id": 140348647597760, "vr": "[-oo, oo]", "user_stack": […], "stack": […]}, "frame_id": 2, "frame_compile_id": 0, "attempt": 0}
//
// They become KindShapeEnv records of the dynamic log's kind (SymbolCreated). A size that takes the symbol of one
// already made (duck sizing) has no event, as it has no INFO line. The trace has no create_env: where the file
// shows this torch traces symbols (it holds such an event, or its torch is 2.6 or later, whose create_symbol is
// traced unconditionally), each compile it holds to its compilation_metrics gets a ShapesTraced record: a symbol
// that compile made would be in the file.

// traceSymbol is the payload of a create_symbol or create_unbacked_symbol event (the fields read).
type traceSymbol struct {
	Symbol string          `json:"symbol"`
	Val    json.RawMessage `json:"val"` // a string ("9", "3.5164871215820312") in the files seen
	Source string          `json:"source"`
}

// symbol makes a record of a create_symbol or create_unbacked_symbol event.
func (st *traceState) symbol(env *envelope, line int) {
	st.symbols = true
	r := st.record(env, line, logparse.KindShapeEnv)
	if !r.CompileID.Valid() {
		return // made outside a compile
	}
	if s := env.CreateSymbol; s != nil {
		if s.Symbol == "" || s.Source == "" {
			return
		}
		val := ""
		if json.Unmarshal(s.Val, &val) != nil {
			val = string(s.Val)
		}
		r.Shape = &logparse.ShapeEvent{Event: logparse.SymbolCreated, Symbol: s.Symbol, Value: val, Source: s.Source}
	} else {
		if env.CreateUnbacked.Symbol == "" {
			return
		}
		r.Shape = &logparse.ShapeEvent{Event: logparse.SymbolCreated, Symbol: env.CreateUnbacked.Symbol, Unbacked: true}
	}
	st.emit(r)
}

// shapesTraced emits a ShapesTraced record for each compile the file holds to its compilation_metrics, where it
// shows this torch traces the symbols compiles make.
func (st *traceState) shapesTraced() {
	if !st.symbols && !logparse.TorchVersionAtLeast(st.version, 2, 6) {
		return
	}
	cids := make([]logparse.CompileID, 0, len(st.metricsOf))
	for cid := range st.metricsOf {
		cids = append(cids, cid)
	}
	// CompileID.Compare, with the compiled-autograd id to break its ties: the ids are a map's keys, so they need a
	// total order to come out the same every time (cidLess in triage keeps Compare's ties as ties: first seen wins).
	slices.SortFunc(cids, func(a, b logparse.CompileID) int { return cmp.Or(a.Compare(b), cmp.Compare(a.Autograd, b.Autograd)) })
	for _, cid := range cids {
		r := st.record(nil, st.metricsOf[cid], logparse.KindShapeEnv)
		r.CompileID, r.Shape = cid, &logparse.ShapeEvent{Event: logparse.ShapesTraced}
		st.emit(r)
	}
}
