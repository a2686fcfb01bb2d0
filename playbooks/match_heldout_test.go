package playbooks

import "testing"

// Breaks of the held-out runs (testdata/heldout/, torch 2.6.0 and 2.14.1) that fell to generic-graph_break or to
// PyTorch's generic words. 2.6 logs no GB id and no gb_type: a message that starts with what became a gb_type
// (`torch.* op returned non-Tensor …`, GB0208) is matched as that gb_type, at the level of message words; a
// custom op without a fake kernel reads `unsupported operator: ns.op` (2.6) or GB0090 with that context (2.14).
func TestHeldoutBreakMessages(t *testing.T) {
	s := mustBuiltin(t)
	cases := []struct {
		name        string
		q           Query
		want, level string
	}{
		{"2.6 clip_grad_norm_'s grouping: a message that starts with a gb_type", Query{Kind: KindGraphBreak,
			Reason: "Unsupported: torch.* op returned non-Tensor dict call_function <built-in method _group_tensors_by_device_and_dtype of PyCapsule object at 0x7f731e778cc0>"},
			"gb-registry-0208", LevelReason},
		{"2.6 a gb_type's words start a message: a built-in playbook of its GB id first", Query{Kind: KindGraphBreak,
			Reason: "Unsupported: dynamic shape operator: aten.bincount.default; to enable, set torch._dynamo.config.capture_dynamic_output_shape_ops = True"},
			"gb-dynamic-shape-op", LevelReason},
		{"2.6 custom op without a fake kernel", Query{Kind: KindGraphBreak,
			Reason: "Unsupported: unsupported operator: hx.rowscale.default (see https://docs.google.com/document/d/1GgvOe7C8_NVOMLOCwDaYV1mXXyHMXY7ExoewHqooxrs/edit#heading=h.64r4npvq0w0 for how to fix)"},
			"err-custom-op-fake", LevelReason},
		{"2.14 custom op without a fake kernel (GB0090)", Query{Kind: KindGraphBreak, GBID: "GB0090",
			GBType: "Operator does not support running with fake tensors",
			Reason: "Operator does not support running with fake tensors\n  Explanation: \n  Developer debug context: unsupported operator: hx.rowscale.default"},
			"err-custom-op-fake", LevelGBID},
		{"2.6 ModelOutput (an OrderedDict dataclass) filled in __post_init__", Query{Kind: KindGraphBreak,
			Reason: "Unsupported: call_method MutableMappingVariable(ModelOutput) __setitem__ [LazyVariableTracker(), TensorVariable()] {}"},
			"gb-container-subclass", LevelReason},
		{"2.6 a user class constructed in compiled code", Query{Kind: KindGraphBreak,
			Reason: "Unsupported: call_function UserDefinedClassVariable(<class '__main__.ModelOutput'>) [] {'loss': TensorVariable(), 'logits': TensorVariable()}"},
			"gb-user-object-method", LevelReason},
		{"2.6 Optimizer.zero_grad in a skipped file", Query{Kind: KindGraphBreak,
			Reason: "Unsupported: 'inline in skipfiles: Optimizer.zero_grad | inner /usr/lib/python3/dist-packages/torch/_compile.py, skipped according trace_rules.lookup SKIP_DIRS'"},
			"gb-skipped-function", LevelReason},
		{"2.14 a break inside copy.deepcopy (GB0217 at copy.py, the site's frame in the query)", Query{Kind: KindGraphBreak, GBID: "GB0217",
			GBType: "unsupported hasattr operation",
			Reason: "unsupported hasattr operation\nDynamo does not know how to trace the function `hasattr`\ncopy deepcopy: copier = getattr(x, \"__deepcopy__\", None)"},
			"gb-deepcopy", LevelGBID},
		{"GB0217 elsewhere stays PyTorch's words", Query{Kind: KindGraphBreak, GBID: "GB0217", GBType: "unsupported hasattr operation",
			Reason: "unsupported hasattr operation\nmymod f: if hasattr(obj, 'x'):"}, "gb-registry-0217", LevelGBID},
	}
	for _, c := range cases {
		r := s.Match(c.q)
		if r.Primary == nil || r.Primary.ID != c.want || r.Level != c.level {
			id := ""
			if r.Primary != nil {
				id = r.Primary.ID
			}
			t.Errorf("%s: %s at %s, want %s at %s", c.name, id, r.Level, c.want, c.level)
		}
	}
	// an aten op without a meta kernel is no custom op of the user's
	aten := Query{Kind: KindGraphBreak, Reason: "Unsupported: unsupported operator: aten._foo.default (see https://docs.google.com/document/d/x for how to fix)"}
	if r := s.Match(aten); r.Primary != nil && r.Primary.ID == "err-custom-op-fake" {
		t.Errorf("an aten op: %s, want no custom-op playbook", r.Primary.ID)
	}
	// a short word at a message's start is no gb_type
	if i := registryEntryIn("Unsupported: Tensor.item"); i >= 0 {
		t.Errorf("Tensor.item read as %s", registryEntries[i].gbType)
	}
}
