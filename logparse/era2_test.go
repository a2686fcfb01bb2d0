package logparse

import (
	"os"
	"strings"
	"testing"
)

// Small real excerpts (copied from the fixtures) and one synthetic 2.8 case, checked field by field.

func TestEra_2_6_FullDuplicateAndRecompile(t *testing.T) {
	data, err := os.ReadFile("../testdata/fixtures/torch-2.6/r05_dist_c10d.triage.log")
	if err != nil {
		t.Fatal(err)
	}
	rs := parseAll(t, string(data))
	b := ofKind(rs, KindGraphBreak)
	if len(b) != 2 {
		t.Fatalf("2 break records (full + details suppressed), got %d", len(b))
	}
	full, dup := b[0].Break, b[1].Break
	if b[0].FirstLine > b[1].FirstLine {
		full, dup = dup, full
	}
	if full.Variant != BreakFull || dup.Variant != BreakDuplicate || full.File != "/work/repro/r05_dist_c10d.py" || full.Line != 10 ||
		!strings.HasPrefix(full.Reason, "Unsupported: builtin: print") || full.Reason != dup.Reason || full.UserFrame.Func != "step" {
		t.Fatalf("full %+v\ndup %+v", full, dup)
	}
	if b[0].Rank != 0 || b[0].CompileID.String() == "" || b[0].Artifact != "graph_breaks" || b[0].PID != 13643 || b[0].Level != 'V' {
		t.Fatalf("prefix fields %+v", b[0])
	}
	if got := b[0].Era.String(); got != "2.6–2.7" {
		t.Fatalf("era %q", got)
	}
	rc := ofKind(rs, KindRecompile)
	if len(rc) != 3 || rc[0].Recompile.Function != "step" || rc[0].Recompile.Line != 6 ||
		rc[0].Recompile.Failures[0].CompileID != "0/0" || !strings.Contains(rc[0].Recompile.Failures[0].Guard, "size mismatch at index 0. expected 4, actual 8") {
		t.Fatalf("recompiles %+v", rc[0].Recompile)
	}
}

func TestSynthetic_2_8_GraphBreakReasonWithoutLink(t *testing.T) {
	p := "V0801 10:00:00.000000 77 torch/_dynamo/symbolic_convert.py:1000] [0/0] [__graph_breaks] "
	log := p + "Graph break in user code at /w/r.py:4\n" +
		p + "Graph Break Reason: Data-dependent branching\n" +
		p + "  Explanation: Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`).\n" +
		p + "  Hint: Use `torch.cond` to express dynamic control flow.\n" +
		p + "User code traceback:\n" +
		p + "  File \"/w/r.py\", line 4, in f\n" +
		p + "    if y.sum() > 0:\n"
	b := ofKind(parseAll(t, log), KindGraphBreak)
	if len(b) != 1 {
		t.Fatalf("%d breaks", len(b))
	}
	g := b[0].Break
	if g.GBType != "Data-dependent branching" || g.GBID != "" || len(g.Hints) != 1 || !strings.HasPrefix(g.Explanation, "Detected") ||
		g.UserFrame.Line != 4 || g.Frames[0].Code != "if y.sum() > 0:" || b[0].Era.String() != "2.8–2.14" {
		t.Fatalf("%+v era %q", g, b[0].Era)
	}
}

func TestEra_2_14_GBIDHintsStackAndLimit(t *testing.T) {
	data, err := os.ReadFile("../testdata/fixtures/torch-2.14/gb_recompile.triage.log")
	if err != nil {
		t.Fatal(err)
	}
	rs := parseAll(t, string(data))
	var print, item *GraphBreak
	for _, r := range ofKind(rs, KindGraphBreak) {
		if r.Break.Variant == BreakFull && r.Break.Line == 12 {
			print = r.Break
		}
		if r.Break.Variant == BreakItemWarning {
			item = r.Break
		}
	}
	if print == nil || print.GBID != "GB0059" || print.GBType != "Failed to trace builtin operator" || len(print.Hints) != 3 ||
		len(print.Frames) != 3 || print.Frames[0].Func != "<module>" || print.UserFrame.Func != "helper" {
		t.Fatalf("print break %+v", print)
	}
	if item == nil || item.File != "/root/repro/gb_recompile.py" || item.Line != 18 {
		t.Fatalf("item() warning %+v", item)
	}
	var stack *Recompile
	for _, r := range ofKind(rs, KindRecompile) {
		if r.CompileID.String() == "4/3" {
			stack = r.Recompile
		}
	}
	if stack == nil || len(stack.Failures) != 3 || stack.Failures[0].CompileID != "4/2" || !strings.HasPrefix(stack.Failures[0].Guard, "mode == 'a'") ||
		!strings.Contains(stack.Failures[0].Extra, "User stack trace") {
		t.Fatalf("recompile 4/3 %+v", stack)
	}
	// a failure's user stack: its lines, trimmed, one per line
	found := false
	for _, r := range ofKind(rs, KindRecompile) {
		if r.FirstLine == 69 {
			found = true
			want := "User stack trace:\nFile \"/root/repro/gb_recompile.py\", line 18, in torch_dynamo_resume_in_f_at_18\n" +
				"if x.sum().item() > 0:                  # graph break: Tensor.item / data-dependent branch"
			if f := r.Recompile.Failures; len(f) != 1 || f[0].Extra != want {
				t.Fatalf("recompile at line 69: %q", f)
			}
		}
	}
	if !found {
		t.Fatal("no recompile at line 69")
	}
	l := ofKind(rs, KindLimitHit)
	if len(l) != 1 || l[0].Limit.Limit != "recompile_limit" || l[0].Limit.Value != 3 || l[0].Limit.Function != "torch_dynamo_resume_in_f_at_18" ||
		l[0].Limit.Line != 18 || !strings.HasPrefix(l[0].Limit.LastReason, "4/2: mode == 'a'") || l[0].Era.String() != "2.7–2.14" {
		t.Fatalf("limit %+v era %q", l[0].Limit, l[0].Era)
	}
}

func TestEra_2_14_FrameSkipRecorded(t *testing.T) {
	// Recorded with realtorch (testdata/realtorch/README.md): a print inside try/finally cannot be resumed.
	data, err := os.ReadFile("../testdata/realtorch/r20_frame_skip.triage.log")
	if err != nil {
		t.Fatal(err)
	}
	b := ofKind(parseAll(t, string(data)), KindGraphBreak)
	if len(b) != 1 {
		t.Fatalf("%d breaks", len(b))
	}
	g := b[0].Break
	if g.Variant != BreakFrameSkip || g.GBType != "Failed to trace builtin operator" || g.GBID != "GB0059" || g.Line != 7 || g.UserFrame.Func != "f" {
		t.Fatalf("%+v", g)
	}
}
