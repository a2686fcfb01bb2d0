package triage_test

import (
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// By-design breaks the fixtures do not hold, written as the formats reference (§3) and the graph-break registry
// describe them: DDPOptimizer bucket splits, torch.compiler.disable()'d functions (FSDP2 hooks), an explicit
// torch._dynamo.graph_break() in 2.14 form. They are expected, info, and do not count against a zero-break gate.
func TestByDesignBreakForms(t *testing.T) {
	user := logparse.Frame{File: "/w/train.py", Line: 40, Func: "forward", Code: "x = self.block(x)"}
	cases := []struct {
		name     string
		brk      logparse.GraphBreak
		playbook string
	}{
		{"DDPOptimizer", logparse.GraphBreak{Variant: logparse.BreakFull, File: "/w/train.py", Line: 40,
			Reason: "DDPOptimizer intentional graph-break (bucket 2)"}, "expected-ddp-optimizer"},
		{"compiler.disable (2.14)", logparse.GraphBreak{Variant: logparse.BreakFull, File: "/w/train.py", Line: 40, GBID: "GB0098",
			GBType: "Skip calling `torch.compiler.disable()`d function", Reason: "Encountered graph break when attempting to trace CALL: a function call, e.g. f(x, y):",
			Explanation: "Skip calling function `<function FSDPState._pre_forward at 0x7f3a>` since it was wrapped with `torch.compiler.disable` (reason: None)"}, "expected-compiler-disable"},
		{"FSDP2 hook site", logparse.GraphBreak{Variant: logparse.BreakFull, File: "/usr/lib/python3/dist-packages/torch/distributed/fsdp/_fully_shard/_fsdp_state.py", Line: 230,
			Reason: "Unsupported: call_function UserDefinedObjectVariable(skip_fsdp_hooks) [] {}"}, "expected-compiler-disable"},
		{"graph_break() (2.14)", logparse.GraphBreak{Variant: logparse.BreakFull, File: "/w/train.py", Line: 40, GBID: "GB0025",
			GBType: "Call to `torch._dynamo.graph_break()`", Explanation: "User-inserted graph break. Message: None"}, "expected-explicit-graph-break"},
	}
	for _, c := range cases {
		a := triagetest.SynthAnalysis(t, 0, func(agg *report.Aggregator) {
			b := c.brk
			b.Frames = []logparse.Frame{user}
			if b.File != user.File {
				b.Frames = append(b.Frames, logparse.Frame{File: b.File, Line: b.Line, Func: "_pre_forward", Code: "hook()"})
			}
			b.UserFrame = user
			agg.Add(&logparse.Record{Kind: logparse.KindGraphBreak, Rank: -1, Input: "x.log", FirstLine: 1,
				CompileID: logparse.CompileID{Autograd: -1, Frame: 0}, Break: &b})
		})
		br := triage.FindingsOf(a, findings.KindGraphBreak)
		if len(br) != 1 || !br[0].Expected || br[0].Category != findings.CategoryExpected || br[0].Severity != "info" {
			t.Errorf("%s: %+v", c.name, br)
			continue
		}
		if br[0].Playbook != c.playbook {
			t.Errorf("%s: playbook %s, want %s", c.name, br[0].Playbook, c.playbook)
		}
		if br[0].File != "/w/train.py" || br[0].Line != 40 || br[0].Function != "forward" {
			t.Errorf("%s: points at %s:%d %s, want the user's train.py:40 forward", c.name, br[0].File, br[0].Line, br[0].Function)
		}
		if !a.Verdict.Steady {
			t.Errorf("%s: a by-design break alone should leave the run steady: %+v", c.name, a.Verdict)
		}
		if res := gate.Check(a, gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}); !res.Passed {
			t.Errorf("%s: counted against --max-graph-breaks 0: %+v", c.name, res.Failures)
		}
	}
}
