package logparse

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func parseAll(t *testing.T, s string) []*Record {
	t.Helper()
	var out []*Record
	if err := Parse(strings.NewReader(s), Options{Input: "t", Rank: -1, KeepText: true}, func(r *Record) { out = append(out, r) }); err != nil {
		t.Fatal(err)
	}
	return out
}

func ofKind(rs []*Record, k Kind) []*Record {
	var out []*Record
	for _, r := range rs {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

// Cases written from the templates in docs torch-log-formats.md (no real log of these eras exists here):
// hence "synthetic" in their names.
func TestSynthetic_2_0_FirstLineOnly(t *testing.T) {
	log := "[2022-12-22 03:54:03,390] torch._dynamo.convert_frame: [WARNING] Graph break: call_function BuiltinVariable(print) from user code at\n" +
		"  File \"/w/r.py\", line 12, in helper\n" +
		"    print(x)\n" +
		"[2022-12-22 03:54:04,001] torch._dynamo.convert_frame: [WARNING] torchdynamo hit config.cache_size_limit (64)\n" +
		"   function: 'f' (/w/r.py:3)\n" +
		"   reasons: x.size()[0] == 8\n"
	rs := parseAll(t, log)
	b := ofKind(rs, KindGraphBreak)
	if len(b) != 1 || b[0].Break.File != "/w/r.py" || b[0].Break.Line != 12 || b[0].Break.Reason != "call_function BuiltinVariable(print)" {
		t.Fatalf("break: %+v", b)
	}
	l := ofKind(rs, KindLimitHit)
	if len(l) != 1 || l[0].Limit.Limit != "cache_size_limit" || l[0].Limit.Value != 64 || l[0].Limit.Function != "f" || l[0].Limit.LastReason != "x.size()[0] == 8" {
		t.Fatalf("limit: %+v", l)
	}
	if b[0].Level != 'W' || b[0].Emitter != "torch._dynamo.convert_frame" || b[0].Era.String() != "2.0" {
		t.Fatalf("prefix fields: level %c emitter %q era %q", b[0].Level, b[0].Emitter, b[0].Era)
	}
}

func TestSynthetic_2_1_EveryLineDate(t *testing.T) {
	p := "[2024-02-06 10:32:24,334] [0/0] torch._dynamo.symbolic_convert.__graph_breaks: [DEBUG] "
	log := p + "Graph break: Tensor.item from user code at:\n" +
		p + "  File \"/w/r.py\", line 5, in f\n" +
		p + "    y = x.sum().item()\n" +
		"user print\n" +
		"[2024-02-06 10:32:25,001] [0/1] torch._dynamo.guards.__recompiles: [DEBUG] ('Recompiling function f in /w/r.py', \"triggered by the following guard failure: L['t'] == 0\")\n"
	rs := parseAll(t, log)
	b := ofKind(rs, KindGraphBreak)
	if len(b) != 1 || b[0].Break.Line != 5 || b[0].Break.Reason != "Tensor.item" || b[0].CompileID.String() != "0/0" || b[0].Artifact != "graph_breaks" {
		t.Fatalf("break: %+v %+v", b, b[0].Break)
	}
	if len(b[0].Lines) != 3 {
		t.Fatalf("user print must not join an every-line record: %q", b[0].Lines)
	}
	rc := ofKind(rs, KindRecompile)
	if len(rc) != 1 || rc[0].Recompile.Function != "f" || len(rc[0].Recompile.Failures) != 1 || rc[0].Recompile.Failures[0].Guard != "L['t'] == 0" {
		t.Fatalf("recompile: %+v", rc)
	}
}

func TestSynthetic_2_3_FromUserCodeWithTraceback(t *testing.T) {
	p := "V0403 07:28:48.051000 139877824898048 torch/_dynamo/symbolic_convert.py:1070] [0/0] [__graph_breaks] "
	log := p + "Graph break: from user code at:\n" +
		p + "  File \"/w/r.py\", line 9, in f\n" +
		p + "    if x.sum() > 0:\n" +
		p + "Traceback (most recent call last):\n" +
		p + "  File \"/usr/lib/python3/site-packages/torch/_dynamo/symbolic_convert.py\", line 412, in inner\n" +
		p + "    unimplemented(msg)\n" +
		p + "torch._dynamo.exc.Unsupported: generic_jump TensorVariable()\n"
	rs := parseAll(t, log)
	b := ofKind(rs, KindGraphBreak)
	if len(b) != 1 || b[0].Break.Line != 9 || b[0].Break.Reason != "generic_jump TensorVariable()" || b[0].Break.UserFrame.Func != "f" {
		t.Fatalf("break: %+v", b[0].Break)
	}
	if got := b[0].Era.String(); got != "2.3–2.4" {
		t.Fatalf("era %q (thread id prefix + 2.3–2.5 format)", got)
	}
	if len(ofKind(rs, KindCompileError)) != 0 {
		t.Fatal("a traceback inside a log record is not a compile error")
	}
}

func TestSynthetic_Prefixes(t *testing.T) {
	cases := []struct {
		name, line   string
		rank, local  int
		cid, emitter string
	}{
		{"tee stacked", "[default1]:[rank3]:V1121 07:45:29.809000 31643 torch/_dynamo/guards.py:2791] [0/1] [__recompiles] Recompiling function step in /w/r.py:6", 3, 1, "0/1", "torch/_dynamo/guards.py:2791"},
		{"srun label", "2: [rank2]:V1121 07:45:29.809000 31643 torch/_dynamo/guards.py:2791] [0/1_2] [__recompiles] Recompiling function step in /w/r.py:6", 2, -1, "0/1_2", "torch/_dynamo/guards.py:2791"},
		{"windows emitter", `W1121 07:45:29.809000 31643 Lib\site-packages\torch\_dynamo\convert_frame.py:844] [!1/2/0] Recompiling function step in C:\w\r.py:6`, -1, -1, "!1/2/0", `Lib\site-packages\torch\_dynamo\convert_frame.py:844`},
		{"absolute emitter", "I1121 07:45:29.809000 31643 /opt/venv/lib/python3.11/site-packages/torch/_dynamo/guards.py:2791] Recompiling function step in /w/r.py:6", -1, -1, "", "/opt/venv/lib/python3.11/site-packages/torch/_dynamo/guards.py:2791"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs := ofKind(parseAll(t, c.line+"\n"), KindRecompile)
			if len(rs) != 1 {
				t.Fatalf("want one recompile, got %d", len(rs))
			}
			r := rs[0]
			if r.Rank != c.rank || r.LocalRank != c.local || r.CompileID.String() != c.cid || r.Emitter != c.emitter || r.Recompile.Function != "step" {
				t.Fatalf("got rank %d local %d cid %q emitter %q fn %q", r.Rank, r.LocalRank, r.CompileID, r.Emitter, r.Recompile.Function)
			}
		})
	}
}

func TestSynthetic_CustomFormatAndGlued(t *testing.T) {
	log := "cuda eval  BartForCausalLM   [2023-03-31 05:57:27,551] torch._dynamo.symbolic_convert: [WARNING] Graph break: inline in skipfiles from user code at\n" +
		"  File \"/w/bart.py\", line 77, in forward\n" +
		"MYFMT::torch._dynamo.guards.__recompiles::Recompiling function f in /w/r.py:15\n" +
		"    triggered by the following guard failure(s):\n" +
		"    - 0/0: tensor 'L['x']' size mismatch at index 0. expected 8, actual 9\n"
	rs := parseAll(t, log)
	if b := ofKind(rs, KindGraphBreak); len(b) != 1 || b[0].Break.Line != 77 {
		t.Fatalf("glued break: %+v", b)
	}
	rc := ofKind(rs, KindRecompile)
	if len(rc) != 1 || len(rc[0].Recompile.Failures) != 1 || rc[0].Recompile.Failures[0].CompileID != "0/0" {
		t.Fatalf("custom-format recompile: %+v", rc)
	}
}

func TestSynthetic_CudagraphSkipDoubled(t *testing.T) {
	log := "V1121 07:45:29.809000 31643 torch/_inductor/cudagraph_trees.py:2100] [0/0] [__cudagraphs] skipping cudagraphs due to skipping cudagraphs due to cpu device (arg1_1). Found from : \n" +
		"V1121 07:45:29.809000 31643 torch/_inductor/cudagraph_trees.py:2100] [0/0] [__cudagraphs]    File \"/w/r.py\", line 4, in f\n"
	s := ofKind(parseAll(t, log), KindCudagraphSkip)
	if len(s) != 1 || s[0].Skip.Reason != "cpu device (arg1_1)" {
		t.Fatalf("skip: %+v", s)
	}
}

// A recompile's "User stack trace" continuation lines are printed by torch 2.11 as well as 2.14.1: a real 2.11 log
// showing them is no "2.14" format.
func TestUserStackTraceIsNotOnly214(t *testing.T) {
	data, err := os.ReadFile("../testdata/fixtures/torch-2.11-cuda/g07_gb_recompile_mix.triage.log")
	if err != nil {
		t.Fatal(err)
	}
	era := Era{}
	Parse(bytes.NewReader(data), Options{Rank: -1}, func(r *Record) { era = era.Merge(r.Era) })
	if lo, hi, ok := era.Bounds(); !ok || lo > 11 || hi < 11 {
		t.Errorf("era of a 2.11 log: %s", era)
	}
}
