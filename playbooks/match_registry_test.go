package playbooks

import (
	"slices"
	"testing"
)

// The order of the sources: a built-in playbook keyed on the GB id, gb_type, guard or exception class, else the
// registry playbook (by GB id, then gb_type), else a built-in one matched on message words, else generic.
func TestMatchOrderWithTheRegistry(t *testing.T) {
	s := mustBuiltin(t)
	generator := "torch.Generator.manual_seed() is a stateful RNG operation that cannot be soundly traced in the FX graph."
	cases := []struct {
		name        string
		q           Query
		want, level string
		related     string // a playbook Related must hold
	}{
		{"built-in by GB id wins; PyTorch's words are related", Query{Kind: KindGraphBreak, GBID: "GB0124",
			GBType: "Unsupported Tensor.item() call with capture_scalar_outputs=False"}, "gb-item", LevelGBID, "gb-registry-0124"},
		{"built-in by gb_type wins", Query{Kind: KindGraphBreak,
			GBType: "Unsupported Tensor.item() call with capture_scalar_outputs=False"}, "gb-item", LevelGBType, "gb-registry-0124"},
		{"GB id no built-in covers (manybreaks.2.14)", Query{Kind: KindGraphBreak, GBID: "GB6215", GBType: "Unresolved GetAttrVariable comparison",
			Reason: "Cannot compare GetAttrVariable(LoggingLoggerVariable(), name) because the attribute could not be resolved to a concrete value."},
			"gb-registry-6215", LevelGBID, ""},
		{"the GB id beats a built-in's message words (an RNG Generator is no Python generator)", Query{Kind: KindGraphBreak,
			GBID: "GB7650", GBType: "torch.Generator method", Reason: generator}, "gb-registry-7650", LevelGBID, "gb-generator"},
		{"the exception class is a key too: a fullgraph error", Query{Kind: KindCompileError, ErrorClass: "torch._dynamo.exc.Unsupported",
			GBID: "GB6215", GBType: "Unresolved GetAttrVariable comparison"}, "err-fullgraph-unsupported", LevelError, "gb-registry-6215"},
		{"the GB id beats an exception pattern found in the message only", Query{Kind: KindCompileError, ErrorClass: "KeyError",
			GBID: "GB6215", Reason: "raised CppCompileError: C++ compile error"}, "gb-registry-6215", LevelGBID, "err-cpp-toolchain"},
		{"by gb_type without a GB id (2.8)", Query{Kind: KindGraphBreak, GBType: "Unresolved GetAttrVariable comparison"},
			"gb-registry-6215", LevelGBType, ""},
		{"by an earlier release's gb_type", Query{Kind: KindGraphBreak, GBType: "Unsupported __setitem__/__setattr__ inline attempt"},
			"gb-registry-0131", LevelGBType, ""},
		{"by a gb_type torch filled in", Query{Kind: KindGraphBreak, GBType: "unsupported type.__dict__['__module__'].__get__ call"},
			"gb-registry-9672", LevelGBType, ""},
		{"a gb_type two ids had: the one whose name it is now", Query{Kind: KindGraphBreak, GBType: "bad device argument to torch.get_device_module"},
			"gb-registry-0286", LevelGBType, ""},
		{"a GB id torch 2.14.1 lacks, a gb_type it has", Query{Kind: KindGraphBreak, GBID: "GB9999", GBType: "Unresolved GetAttrVariable comparison"},
			"gb-registry-6215", LevelGBType, ""},
		{"neither known", Query{Kind: KindGraphBreak, GBID: "GB9999", GBType: "Something new in 2.20"}, "generic-graph_break", LevelFallback, ""},
		{"a recompile is no graph break", Query{Kind: KindRecompile, GBID: "GB6215"}, "generic-recompile", LevelFallback, ""},
		{"2.6 (no GB id, no gb_type): message words", Query{Kind: KindGraphBreak, Reason: "Unsupported: Tensor.item"}, "gb-item", LevelReason, ""},
	}
	for _, c := range cases {
		r := s.Match(c.q)
		if r.Primary == nil || r.Primary.ID != c.want || r.Level != c.level {
			t.Errorf("%s: %v at %s, want %s at %s", c.name, r.Primary, r.Level, c.want, c.level)
			continue
		}
		if c.related != "" && !slices.Contains(r.RelatedIDs, c.related) {
			t.Errorf("%s: related %v lacks %s", c.name, r.RelatedIDs, c.related)
		}
		if slices.Contains(r.RelatedIDs, r.Primary.ID) {
			t.Errorf("%s: the primary is related too", c.name)
		}
	}
}

// Words of the advice a message quotes match nothing: the "Hint:" lines of a break and a fullgraph error, and a
// "run with TORCH_LOGS=…" inside an exception's message (issue 33, wrong answer 1).
func TestAdviceIsNotMatched(t *testing.T) {
	s := mustBuiltin(t)
	cases := []struct {
		name string
		q    Query
		want string
	}{
		{"ConstraintViolationError suggesting TORCH_LOGS", Query{Kind: KindCompileError,
			ErrorClass: "torch.fx.experimental.symbolic_shapes.ConstraintViolationError",
			Reason: "Constraints violated (L['x'].size()[0])! For more information, run with TORCH_LOGS=\"+dynamic\".\n" +
				"  - Not all values of RelaxedUnspecConstraint(L['x'].size()[0]) are valid because L['x'].size()[0] was inferred to be a constant (4)."},
			"err-constraint-violation"}, // its own playbook, never err-invalid-torch-logs
		{"a hint naming Tensor.item", Query{Kind: KindGraphBreak, Reason: "Unsupported: some new call\n" +
			"Hint: Set `torch._dynamo.config.capture_scalar_outputs = True` if you call Tensor.item()"}, "generic-graph_break"},
		{"an indented hint of a fullgraph error", Query{Kind: KindRuntimeError, ErrorClass: "RuntimeError",
			Reason: "something broke\n  Hint: run with TORCH_LOGS=+dynamo"}, "generic-runtime_error"},
		{"the rejected TORCH_LOGS itself still matches", Query{Kind: KindCompileError, ErrorClass: "ValueError",
			Reason: "Invalid log settings: graph_breaks,flex_gemm, must be a comma separated list of fully qualified module names"},
			"err-invalid-torch-logs"},
	}
	for _, c := range cases {
		if r := s.Match(c.q); r.Primary == nil || r.Primary.ID != c.want {
			t.Errorf("%s: %v, want %s", c.name, r.Primary, c.want)
		}
	}
	for in, want := range map[string]string{
		"NCCL error in: x.cpp:93, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.28.9":         "NCCL error in: x.cpp:93, invalid usage , NCCL version 2.28.9",
		"If memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid it.  See the docs": "If memory is large   See the docs",
		"Explanation: x\nHint: do y\n  Hint: do z\nDeveloper debug context: w":                                       "Explanation: x\nDeveloper debug context: w",
		"no advice here": "no advice here",
	} {
		if got := adviceFree(in); got != want {
			t.Errorf("adviceFree(%q) = %q, want %q", in, got, want)
		}
	}
}
