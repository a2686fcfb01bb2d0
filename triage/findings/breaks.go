package findings

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/report"
)

// breakLabels are the short list labels of the causes the built-in playbooks know. They are also the "what" of
// a break's ID, so that one cause at one site has the same ID in every torch version and log form (2.6's
// "Unsupported: Tensor.item", 2.14's gb_type, the W-level Tensor.item() warning).
var breakLabels = map[string]string{
	"gb-print": "print()", "gb-item": ".item()", "gb-data-dependent-branch": "data-dependent branch",
	"gb-data-dependent-op": "data-dependent op", "gb-dynamic-shape-op": "dynamic-shape op",
	"gb-logger": "logger call", "gb-deepcopy": "copy.deepcopy()", "gb-generator": "generator",
	"gb-context-manager": "context manager", "gb-autograd-function-ctx": "autograd.Function ctx",
	"gb-requires-grad-mutation": "requires_grad change", "gb-async-collective": "async collective",
	"gb-p2p": "P2P op", "gb-nested-restart": "nested break", "gb-unresumable-skip": "frame skipped",
	"gb-skipped-function": "skipped function", "expected-ddp-optimizer": "DDP bucket split",
	"expected-ddp-wrapper": "DDP wrapper", "expected-compiler-disable": "compiler.disable()",
	"expected-explicit-graph-break": "graph_break()", "rc-limit-reached": "recompile limit",
	"err-backend-ablation": "backend exception", "expected-lr-scheduler-step": "LR scheduler's step wrapper",
	"gb-optimizer-step-wrapped": "opt.step wrapper", "gb-rnn": "RNN/GRU/LSTM", "gb-backward": "Tensor.backward()",
	"gb-stdout-write": "sys.stdout write", "gb-getpid": "os.getpid()", "gb-autograd-grad": "torch.autograd.grad()",
}

// byDesignSites are torch files whose breaks are by design when compiling a wrapped model: DDP's forward
// wrapper and FSDP hooks (Dynamo skips them on purpose).
var byDesignSites = []string{"torch/nn/parallel/distributed.py", "torch/distributed/fsdp/", "torch/distributed/_composable/fsdp/"}

func isByDesignBreak(b *report.BreakSummary) bool {
	p := strings.ReplaceAll(b.File, `\`, "/")
	for _, s := range byDesignSites {
		if strings.Contains(p, s) {
			return true
		}
	}
	return strings.Contains(b.Reason, "DDPOptimizer")
}

// breakFinding makes the finding of a distinct break; m matches it to a playbook (one m per goroutine).
func BreakFinding(b *report.BreakSummary, snap *report.DetailSnap, m *BreakMatcher, recompiling map[string]bool, rw func([]int) string,
	probes []report.ProcessInfo) Finding {
	res := m.match(b)
	f := Finding{Kind: KindGraphBreak, File: b.File, Line: b.Line, Records: b.Records, Ranks: b.Ranks,
		CompileIDs: b.CompileIDs, Evidence: b.Evidence, GBID: b.GBID, GBType: b.GBType,
		BreakSite: b.File + ":" + strconv.Itoa(b.Line)}
	fn := b.Function
	if b.UserFile != "" {
		f.File, f.Line = b.UserFile, b.UserLine
		if b.UserFunc != "" && (b.UserFile != b.File || b.UserLine != b.Line || fn == "") {
			fn = b.UserFunc
		}
	}
	f.Function, _ = guard.FoldFunction(fn)
	f.Expected = isByDesignBreak(b)
	if f.Expected {
		res = preferExpected(res)
	}
	ApplyPlaybook(&f, res)
	f.What = breakLabel(f.Playbook, res, b)
	f.ID = "graph_break:" + ShortPath(b.File) + ":" + strconv.Itoa(b.Line) + ":" + f.What
	f.Key, f.oldKey = breakIdentity(&f, b)
	if snap != nil {
		f.RankStats = snap.Breaks[b]
	}
	if f.RankStats == nil {
		f.RankStats = ranksFromEvidence(b.Ranks, b.Evidence, b.Records)
	}
	f.InRecompilingFrame = anyRecompiled(b.CompileIDs) || recompiling[b.File+"\x00"+f.Function]
	breakBasisOf(&f, b, probes)
	f.Title = breakTitle(&f, b)
	f.Detail = breakDetail(&f, b, rw)
	return f
}

func breakLabel(id string, res playbooks.Result, b *report.BreakSummary) string {
	if g := b.Sample; g != nil && g.Break != nil && g.Break.Builtin != "" {
		return g.Break.Builtin + "()" // the call: "time.time()"
	}
	if l, ok := breakLabels[id]; ok && res.Level != playbooks.LevelFallback {
		return l
	}
	if b.ItemOnly {
		return ".item()"
	}
	if b.GBType != "" {
		return normalizeText(b.GBType, 60)
	}
	return normalizeText(strings.TrimPrefix(b.Reason, "Unsupported: "), 60)
}

func breakTitle(f *Finding, b *report.BreakSummary) string {
	var t string
	switch {
	case f.File == "" && b.Fragment: // pasted without its header and user frame: the site was cut off
		t = f.What + " breaks the graph (where: cut from the input, which holds no user frame of it)"
	case f.File == "": // Dynamo's warning about a builtin names no site: the graph_breaks record would
		t = f.What + " breaks the graph (where: not in the input; graph_breaks names the site)"
	case f.Function == "": // the input does not show the function (a user traceback not pasted): say where, not a guess
		t = f.What + " breaks the graph at " + SiteText(f.File, f.Line)
	case f.Function == "<module>":
		t = f.What + " breaks the graph in module code (" + SiteText(f.File, f.Line) + ")"
	default:
		t = f.What + " breaks the graph in " + f.Function + " (" + SiteText(f.File, f.Line) + ")"
	}
	if f.File != b.File || f.Line != b.Line {
		t += " via " + SiteText(b.File, b.Line)
	}
	switch {
	case f.Expected && f.Basis != "":
		t += " — by design (" + f.Basis + ")"
	case f.Expected:
		t += " — by design"
	case f.Basis != "":
		t += " — " + f.Basis
	}
	return t
}

func breakDetail(f *Finding, b *report.BreakSummary, rw func([]int) string) string {
	// written part by part into a buffer on the stack, then copied into a string of its size (a builder grown to
	// 1 KiB kept ~660 bytes of bench/many.sh's breaks); a longer detail grows the buffer
	var buf [2048]byte
	d := buf[:0]
	w := func(parts ...string) {
		for _, p := range parts {
			d = append(d, p...)
		}
	}
	switch {
	case b.File != "":
		w("Break site: ", b.File, ":", strconv.Itoa(b.Line))
	case b.Fragment:
		w("Break site: not known (cut from the input, which holds no user frame of it)")
	default:
		w("Break site: not in the input")
	}
	if b.Function != "" {
		w(" in ", b.Function)
	}
	if b.UserFile != "" && (b.UserFile != b.File || b.UserLine != b.Line) {
		w("\nYour code: ", b.UserFile, ":", strconv.Itoa(b.UserLine), " in ", b.UserFunc)
	}
	if b.GBType != "" {
		w("\ngb_type: ", b.GBType)
		if b.GBID != "" {
			w(" [", b.GBID, "]")
		}
	}
	if b.Reason != "" && b.Reason != b.GBType && !strings.HasPrefix(b.Reason, "Encountered graph break when attempting to trace") {
		w("\nReason: ", b.Reason)
	}
	if s := b.Sample; s != nil && s.Break != nil {
		if s.Break.Explanation != "" {
			w("\nExplanation: ", s.Break.Explanation)
		}
		for _, h := range s.Break.Hints {
			w("\nHint: ", h)
		}
		// the parser's UserFrame(Frames), or a frame of the site without code where none is the user's: not
		// looked for again (a library check of each frame, thousands of breaks)
		if fr := s.Break.UserFrame; fr.Code != "" {
			w("\nCode: ", fr.Code)
		}
	}
	if f.basisDetail != "" {
		w("\n", f.basisDetail)
	}
	w("\nRecords: ", strconv.Itoa(b.Records), " · ", rw(b.Ranks), " · compile ids ")
	for i, c := range CapList(b.CompileIDs, 12) {
		if i > 0 {
			w(", ")
		}
		w(c)
	}
	if f.InRecompilingFrame {
		w("\nThe frame recompiles: this break is re-logged (and re-traced) on every recompile.")
	}
	return string(d)
}

// anyRecompiled reports a compile id "F/C" with C ≥ 1 (the frame compiled before).
func anyRecompiled(cids []string) bool {
	for _, c := range cids {
		if i := strings.LastIndexByte(c, '/'); i >= 0 {
			n := c[i+1:]
			if j := strings.IndexByte(n, '_'); j >= 0 {
				n = n[:j]
			}
			if n != "" && n != "0" {
				return true
			}
		}
	}
	return false
}

// ranksFromEvidence rebuilds per-rank stats for a report that was not built by an Aggregator.
func ranksFromEvidence(ranks []int, ev []report.Evidence, records int) map[int]report.RankStat {
	out := map[int]report.RankStat{}
	for _, r := range ranks {
		out[r] = report.StatN(0)
	}
	if len(ranks) == 0 {
		out[-1] = report.StatN(0)
	}
	for _, e := range ev {
		st, ok := out[e.Rank]
		if !ok {
			continue
		}
		cid, _ := parseCID(e.CompileID)
		st.Add(cid)
		out[e.Rank] = st
	}
	if len(ranks) == 0 {
		st := out[-1]
		st.N = records // evidence is capped
		out[-1] = st
	}
	for r, st := range out {
		if st.N == 0 {
			st.N = 1
			out[r] = st
		}
	}
	return out
}

func CapList(list []string, n int) []string {
	if len(list) <= n {
		return list
	}
	return append(append([]string(nil), list[:n]...), fmt.Sprintf("… %d more", len(list)-n))
}
