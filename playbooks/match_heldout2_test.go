package playbooks

import "testing"

// Misses of the second held-out set (testdata/heldout2/, torch 2.6.0 and 2.14.1): torch.autograd.grad inside a
// compiled function fell to generic-graph_break (2.6: "skip function grad in file …/torch/autograd/__init__.py")
// or to PyTorch's registry words (2.14: GB9186); a TorchRuntimeError whose fake-tensor run raised an error eager
// raises too (an in-place op on a leaf that requires grad) got the backend-bisect playbook under backend="eager".
// A custom op without a fake kernel, which fails the same fake run, keeps its own playbook.
func TestHeldout2Messages(t *testing.T) {
	s := mustBuiltin(t)
	cases := []struct {
		name        string
		q           Query
		want, level string
	}{
		{"2.6 torch.autograd.grad: its file is skipped", Query{Kind: KindGraphBreak,
			Reason: "Unsupported: 'skip function grad in file /usr/lib/python3/dist-packages/torch/autograd/__init__.py'"},
			"gb-autograd-grad", LevelReason},
		{"2.14 torch.autograd.grad (GB9186)", Query{Kind: KindGraphBreak, GBID: "GB9186",
			GBType: "using `torch.autograd.grad` with `torch._dynamo.config.trace_autograd_ops=False`",
			Reason: "using `torch.autograd.grad` with `torch._dynamo.config.trace_autograd_ops=False`\n  Explanation: Attempted to call `torch.autograd.grad` with config `torch._dynamo.config.trace_autograd_ops` set to `False`."},
			"gb-autograd-grad", LevelGBID},
		{"2.6 a fake run of sub_ on a leaf that requires grad", Query{Kind: KindCompileError, ErrorClass: "torch._dynamo.exc.TorchRuntimeError",
			Reason: "Failed running call_method sub_(*(FakeTensor(..., size=(4,), requires_grad=True), FakeTensor(..., size=(4,))), **{}):\na leaf Variable that requires grad is being used in an in-place operation."},
			"err-fake-run-eager-error", LevelError},
		{"2.14 the same (GB4315)", Query{Kind: KindCompileError, ErrorClass: "torch._dynamo.exc.TorchRuntimeError", GBID: "GB4315",
			GBType: "RuntimeError when making fake tensor call",
			Reason: "RuntimeError when making fake tensor call\n  Explanation: Dynamo failed to run FX node with fake tensors: call_method sub_(*(FakeTensor(..., size=(4,), requires_grad=True), FakeTensor(..., size=(4,))), **{}): got RuntimeError('a leaf Variable that requires grad is being used in an in-place operation.')"},
			"err-fake-run-eager-error", LevelGBID},
		{"2.6 a custom op without a fake kernel stays the custom-op playbook", Query{Kind: KindCompileError, ErrorClass: "torch._dynamo.exc.TorchRuntimeError",
			Reason: "Failed running call_function tt.scale_rows.default(*(FakeTensor(..., size=(4, 4)),), **{}):\nThere was no fake impl registered for <CustomOpDef(tt::scale_rows)>. This is necessary for torch.compile/export/fx tracing to work."},
			"err-custom-op-fake", LevelError},
		{"2.14 the same (GB4315)", Query{Kind: KindCompileError, ErrorClass: "torch._dynamo.exc.TorchRuntimeError", GBID: "GB4315",
			GBType: "RuntimeError when making fake tensor call",
			Reason: "RuntimeError when making fake tensor call\n  Explanation: Dynamo failed to run FX node with fake tensors: call_function tt.scale_rows.default(*(FakeTensor(..., size=(4, 4)),), **{}): got RuntimeError('There was no fake impl registered for <CustomOpDef(tt::scale_rows)>.')"},
			"err-custom-op-fake", LevelGBID},
		{"another TorchRuntimeError keeps the backend bisect", Query{Kind: KindCompileError, ErrorClass: "torch._dynamo.exc.TorchRuntimeError",
			Reason: "something else went wrong in the backend"},
			"err-backend-ablation", LevelError},
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
}
