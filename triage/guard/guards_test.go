package guard

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
)

// Guard texts as the fixtures print them (2.6 with L['…'], 2.14 short names and a trailing comment) and as
// torch-log-formats.md §4 lists the other failure kinds.
func TestClassifyGuard(t *testing.T) {
	cases := []struct {
		text                       string
		class, source, old, newVal string
		dim                        int
		detail                     string
	}{
		{"tensor 'L['x']' size mismatch at index 0. expected 4, actual 8", "size", "x", "4", "8", 0, "x[0] 4→8"},
		{"tensor 'x' size mismatch at index 0. expected 8, actual 9", "size", "x", "8", "9", 0, "x[0] 8→9"},
		{"tensor 'L['args'][0]' size mismatch at index 1. expected 16, actual 32", "size", "args[0]", "16", "32", 1, "args[0][1] 16→32"},
		{"tensor '___stack0' size mismatch at index 0. expected 8, actual 9", "size", "___stack0", "8", "9", 0, "___stack0[0] 8→9"},
		{"tensor 'L['x']' stride mismatch at index 0. expected 16, actual 1", "stride", "x", "16", "1", 0, "x stride[0] 16→1"},
		{"tensor 'L['x']' rank mismatch. expected 2, actual 3", "rank", "x", "2", "3", -1, "x rank 2→3"},
		{"tensor 'L['x']' dtype mismatch. expected Float, actual BFloat16", "dtype", "x", "Float", "BFloat16", -1, "x dtype Float→BFloat16"},
		{"tensor 'L['x']' device mismatch. expected cpu, actual cuda:0", "device", "x", "cpu", "cuda:0", -1, "x device cpu→cuda:0"},
		// 2.11 on a GPU (testdata/fixtures/torch-2.11-cuda/g07): the backend key named, not the whole sets
		{"tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CUDA, BackendSelect, ADInplaceOrView, AutogradCUDA), actual DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU)", "device", "x", "CUDA", "CPU", -1, "x dispatch key set CUDA→CPU"},
		{"tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU, BackendSelect), actual DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU)", "other", "x", "CPU, BackendSelect", "CPU, BackendSelect, ADInplaceOrView, AutogradCPU", -1, "x dispatch key set +ADInplaceOrView +AutogradCPU"},
		{"tensor 'L['x']' requires_grad mismatch. expected requires_grad=0", "requires_grad", "x", "requires_grad=0", "", -1, "x requires_grad (compiled for requires_grad=0)"},
		{"L['mode'] == 'a0'                                           ", "value_str", "mode", "'a0'", "", -1, "mode == 'a0'"},
		{`mode == 'a7'                                             # if mode.startswith("a"):  # ork/repro/r12_limit_str.py:4 in f`, "value_str", "mode", "'a7'", "", -1, "mode == 'a7'"},
		{"scale == 2.0                                             # x = x * scale  # oot/repro/gb_recompile.py:16 in f", "value_float", "scale", "2.0", "", -1, "scale == 2.0"},
		{"L['scale'] == 0.25", "value_float", "scale", "0.25", "", -1, "scale == 0.25"},
		{"s == -1.7505772113800049                                 # z = x * s  # ork/repro/r02_item.py:6 in torch_dynamo_resume_in_f_at_5", "value_float", "s", "-1.7505772113800049", "", -1, "s == -1.7505772113800049"},
		{"L['___stack0'] == 4.790928840637207", "stack_float", "___stack0", "4.790928840637207", "", -1, "___stack0 == 4.790928840637207"},
		{"___stack0 == 4.790928840637207  # if x.sum().item() > 0:  # graph break: Tensor.item / data-dependent branch  # oot/repro/gb_recompile.py:18 in f", "stack_float", "___stack0", "4.790928840637207", "", -1, "___stack0 == 4.790928840637207"},
		{"L['n'] == 4", "value_int", "n", "4", "", -1, "n == 4"},
		// a range guard on an int made dynamic (testdata/heldout2 g09: an int of a list argument a branch compared)
		{"ids[0] <= 40  # merged.append(i // 2 if i > 40 else i)  # ork/wt-heldout2/testdata/heldout2/repro/g09_tokenizer_int_list.py:11 in encode (_dynamo/variables/tensor.py:2849 in evaluate_expr)", "value_int", "ids[0]", "", "", -1, "ids[0] <= 40"},
		{"L['ids'][0] <= 40", "value_int", "ids[0]", "", "", -1, "ids[0] <= 40"},
		{"L['t'] == 0", "value_int", "t", "0", "", -1, "t == 0"},
		{"L['training'] == True", "value_bool", "training", "True", "", -1, "training == True"},
		{"L['self']._modules['l1'].weight_scale == 1e-05", "value_float", "self.l1.weight_scale", "1e-05", "", -1, "self.l1.weight_scale == 1e-05"},
		// testdata/answers/torch-2.14 (real 2.14.1 recordings, one repro per class)
		{"self.scale == 1                                          # return self.lin(x) * self.scale  # ork/wt-answers/testdata/answers/repro/a09_rc_module_attr.py:11 in forward (HINT: torch.compile considers integer attributes of the nn.Module to be static.", "module_attr", "self.scale", "1", "", -1, "self.scale == 1"},
		{"not ___dict_contains('mask', batch)                      # if \"mask\" in batch:  # ork/wt-answers/testdata/answers/repro/a04_rc_dict_key.py:7 in f", "dict_key", "batch", "absent", "", -1, "key 'mask' absent in batch"},
		{"not hasattr(self, 'pe')                                  # if not hasattr(self, \"pe\"):  # ork/wt-answers/testdata/answers/repro/a05_rc_hasattr.py:6 in forward", "hasattr", "self", "False", "", -1, "hasattr(self, 'pe')"},
		{"not G['history']                                              # if not history:  # ork/wt-answers/testdata/answers/repro/a06_rc_global_list.py:8 in step", "global_container", "history", "empty", "", -1, "history empty"},
		{"len(G['_cache']) == 1                                         # _cache[key] = x.sum()  # ork/a08_rc_data_ptr_cache.py:10 in f", "global_container", "_cache", "1", "", -1, "len(_cache) == 1"},
		{"past is None                                             # if past is None:  # ork/wt-answers/testdata/answers/repro/a07_rc_none_vs_tensor.py:6 in attend", "none", "past", "None", "", -1, "past is None"},
		{"out.loss is None                                         # if out.loss is not None:  # ork/a13_rc_model_output.py:13 in post", "none", "out.loss", "None", "", -1, "out.loss is None"},
		{"___check_obj_id(mode, 140377630248304), type=<class '__main__.Mode'>  # if mode is Mode.TRAIN:  # ork/wt-answers/testdata/answers/repro/a01_rc_enum.py:12 in f", "enum", "mode", "", "Mode.TRAIN", -1, "mode compared with Mode.TRAIN"},
		// 2.6 (testdata/answers/torch-2.6 a02, a07): True/False and None guarded by identity
		{"___check_obj_id(L['training'], 10519872)                    ", "singleton", "training", "", "", -1, "training is True, False or None (guessed from its object id)"},
		{"___check_obj_id(L['mode'], 140656416916544)                 ", "obj_id", "mode", "", "", -1, "object identity of mode"},
		{"___check_obj_id(L['self'].training, 7665376)", "singleton", "self.training", "", "", -1, "self.training is True, False or None (guessed from its object id)"},
		{"___check_obj_id(L['out'].loss, 10519792)", "singleton", "out.loss", "", "", -1, "out.loss is True, False or None (guessed from its object id)"},
		{"___check_obj_id(G['_140062263790704_c0'].Tensor, 82181376)", "obj_id", "_140062263790704_c0.Tensor", "", "", -1, "object identity of _140062263790704_c0.Tensor"},
		{"___check_obj_id(L['m'].forward.__code__, 125680000)", "obj_id", "m.forward.__code__", "", "", -1, "object identity of m.forward.__code__"},
		{"___check_obj_id(fn, 140377630248304), type=<class 'function'>  # return fn(x)  # r.py:12 in f", "obj_id", "fn", "", "", -1, "object identity of fn"},
		{"L['opt'].param_groups[0]['lr'] == 0.01", "value_float", "opt.param_groups[0]['lr']", "0.01", "", -1, "opt.param_groups[0]['lr'] == 0.01"},
		{"___check_obj_id(L['fn'], 140211234567890)", "obj_id", "fn", "", "", -1, "object identity of fn"},
		{"___check_type_id(L['xs'], 94821)", "type", "xs", "", "", -1, "type of xs"},
		{"___check_global_state()", "global_state", "", "", "", -1, "global state"},
		{"GLOBAL_STATE changed: grad_mode", "global_state", "", "", "", -1, "global state: grad_mode"},
		{"___check_current_backend(140011)", "backend", "", "", "", -1, "backend changed"},
		{"len(L['xs']) == 3", "length", "xs", "3", "", -1, "len(xs) == 3"},
		{"Guard failed on a parameter, consider using torch._dynamo.config.force_parameter_static_shapes = False", "param_shape", "", "", "", -1, "parameter shape"},
		{"L['x'].size()[1] == 32", "size", "x", "32", "", 1, "L['x'].size()[1] == 32"},
		{"___check_tensors(L['x'])", "other", "", "", "", -1, "___check_tensors(L['x'])"},
		{"", "other", "", "", "", -1, ""},
	}
	for _, c := range cases {
		g := Classify(c.text)
		if g.Class != c.class || g.Source != c.source || g.Old != c.old || g.New != c.newVal || g.Dim != c.dim || g.Detail != c.detail {
			t.Errorf("%q:\n got %+v\nwant class=%s source=%s old=%s new=%s dim=%d detail=%q", c.text, g, c.class, c.source, c.old, c.newVal, c.dim, c.detail)
		}
	}
}

func TestStripGuardComment(t *testing.T) {
	cases := map[string]string{
		"scale == 2.0      # x = x * scale  # r.py:16 in f": "scale == 2.0",
		"L['mode'] == 'a#b'   # comment":                    "L['mode'] == 'a#b'",
		`L['s'] == "x # y"`:                                 `L['s'] == "x # y"`,
		"L['x'] == 1   ":                                    "L['x'] == 1",
		"#":                                                 "#",
	}
	for in, want := range cases {
		if got := StripGuardComment(in); got != want {
			t.Errorf("StripGuardComment(%q) = %q, want %q", in, got, want)
		}
	}
}

// The fast path of StripGuardComment says what reading every byte says, on random guards of quotes, '#',
// spaces and tabs.
func TestStripGuardCommentFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab #'\"\\\t=")
	for range 200000 {
		b := make([]byte, rng.IntN(24))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if got, want := StripGuardComment(string(b)), stripGuardCommentQuoted(string(b)); got != want {
			t.Fatalf("StripGuardComment(%q) = %q, reading every byte: %q", b, got, want)
		}
	}
}

func TestFoldFunction(t *testing.T) {
	cases := []struct {
		in   string
		fn   string
		line int
	}{
		{"step", "step", 0},
		{"torch_dynamo_resume_in_step_at_10", "step", 10},
		{"torch_dynamo_resume_in_f_at_18", "f", 18},
		{"torch_dynamo_resume_in_my_fn_at_3_at_x", "torch_dynamo_resume_in_my_fn_at_3_at_x", 0},
		{"torch_dynamo_resume_in_torch_dynamo_resume_in_f_at_4_at_6", "f", 6},
		{"torch_dynamo_resume_in_forward_at_15", "forward", 15},
	}
	for _, c := range cases {
		fn, line := FoldFunction(c.in)
		if fn != c.fn || line != c.line {
			t.Errorf("FoldFunction(%q) = %q, %d; want %q, %d", c.in, fn, line, c.fn, c.line)
		}
	}
}

// cutEq splits value guards without the regexp; it must split every text as the regexp does, the odd ones
// (several "==", "===", spaces only on one side, nothing after, line breaks) included.
func TestCutEqIsTheRegexp(t *testing.T) {
	texts := []string{"scale == 2.0", "L['x'].size()[0] == 8", "a==b", "a ==", "== b", "=== b", "a === b",
		"  == b", " a == b", "a ==  ", "a == b == c", "a\n== b", "a ==\nb", "", "=", "==", "x = = y"}
	for _, g := range append(texts, randomTexts(1, " =ab\t\n\r#'", 8, 20000)...) {
		if got, want := cutEq(g), eqGuard.FindStringSubmatch(g); !slices.Equal(got, want) {
			t.Fatalf("cutEq(%q) = %q, the regexp gives %q", g, got, want)
		}
	}
}

// isFloatLiteral is this regexp without the regexp.
var floatLiteral = regexp.MustCompile(`^-?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][-+]?\d+|inf|nan)$`)

func TestIsFloatLiteralIsTheRegexp(t *testing.T) {
	texts := []string{"2.0", "16.5", "-1.", ".5", "-.5", "1e5", "1.5e-3", "1.e+2", ".5e3", "inf", "-inf", "nan",
		"-nan", "1", "-", "", ".", "e5", "1e", "1e+", "1.5.5", "infinity", "0x1p3", "1_000.0"}
	for _, v := range append(texts, randomTexts(3, "0159.-+eEinaf ", 7, 50000)...) {
		if got, want := isFloatLiteral(v), floatLiteral.MatchString(v); got != want {
			t.Fatalf("isFloatLiteral(%q) = %v, the regexp says %v", v, got, want)
		}
	}
}

// randomTexts are n texts of at most maxLen bytes of alphabet, the same for a seed.
func randomTexts(seed uint64, alphabet string, maxLen, n int) []string {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	out := make([]string, n)
	for k := range out {
		b := make([]byte, rng.IntN(maxLen+1))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		out[k] = string(b)
	}
	return out
}
