package report

import (
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// hangLog keeps what the tracebacks say of collectives (hang.go reads it with the stack dumps' places): each rank's
// collective as its error or interrupt shows it, torch's collective timeouts, DETAIL's mismatch, monitored_barrier's
// missing ranks, and torchrun's table of failed ranks.
type hangLog struct {
	Errors   []errWait
	Children []logparse.ChildFailure // the first ChildFailedError table's entries
	Gloo     []glooAbort             // gloo's aborts on its size check: a collective's sizes differ between ranks
}

// glooAbort is one process's abort on gloo's size check (logparse.GlooSize): it received more bytes than its
// collective expects.
type glooAbort struct {
	Rank int // its prefix's, -1 when none (std::terminate's lines carry none in torchrun's merged output)
	logparse.GlooSize
}

// errWait is one traceback of a rank through a collective, or one of torch's collective errors.
type errWait struct {
	Rank      int
	Wait      procWait
	TimeoutMs int      // the collective gave up after so long (gloo's "Timed out waiting 15000ms", monitored_barrier's)
	PeerGone  bool     // gloo lost the peer ("Connection closed by peer"): another process went away first
	Detail    []RankOp // DETAIL's mismatch: the ranks' collectives, this rank's own first
	Differ    string   // DETAIL's "Collectives differ in the following aspects" words
	Missing   []int    // monitored_barrier: the ranks that did not pass it
	Interrupt bool     // the traceback of an interrupt (a stop): where the rank was, no failure of its own
	Class     string
	Message   string // its headline
}

// note takes the tracebacks of a text record (the trace's twins are left out: the text holds them).
func (h *hangLog) note(r *logparse.Record) {
	e := r.Error
	if e == nil || r.Source != logparse.FromText {
		return
	}
	if e.GlooSize != nil {
		g := glooAbort{Rank: r.Rank, GlooSize: *e.GlooSize}
		g.At = strings.Clone(g.At)
		h.Gloo = append(h.Gloo, g)
		return
	}
	if e.Summary {
		if h.Children == nil {
			h.Children = slices.Clone(e.Children)
			for i := range h.Children {
				h.Children[i].Signal = strings.Clone(h.Children[i].Signal)
				h.Children[i].Traceback = strings.Clone(h.Children[i].Traceback)
			}
		}
		return
	}
	if r.Kind != logparse.KindRuntimeError && !(r.Kind == logparse.KindException && e.Interrupted) {
		return
	}
	if slices.ContainsFunc(e.Frames, func(f logparse.Frame) bool {
		return strings.Contains(f.File, "torch/distributed/run.py") || strings.Contains(f.File, "torch/distributed/elastic/")
	}) {
		return // torchrun's own (its reaction to the tool's stop): no process of the program
	}
	frames := slices.Clone(e.Frames)
	slices.Reverse(frames) // innermost first
	w := errWait{Rank: r.Rank, Wait: waitOf(frames), TimeoutMs: timeoutMs(e.Message), Interrupt: e.Interrupted,
		PeerGone: slices.ContainsFunc(peerGoneTexts, func(t string) bool { return strings.Contains(e.Message, t) })}
	if strings.Contains(e.Message, DetailMismatchText) {
		w.Detail, w.Differ = detailOps(e.Message), strings.Clone(detailDiffer(e.Message))
	}
	for _, m := range monitoredFailed.FindAllStringSubmatch(e.Message, -1) {
		if n := leadingDigits(m[1]); n >= 0 && !slices.Contains(w.Missing, n) {
			w.Missing = append(w.Missing, n)
		}
	}
	collective := w.Wait.Kind == WaitCollective || w.Wait.Kind == WaitCompiled
	if !collective && w.TimeoutMs == 0 && len(w.Detail) == 0 && !(w.Interrupt && w.Wait.User.File != "") {
		return // an error of the program's own outside any collective
	}
	w.Wait.User = cloneFrame(w.Wait.User)
	w.Wait.Op, w.Wait.Region = strings.Clone(w.Wait.Op), strings.Clone(w.Wait.Region)
	w.Class, w.Message = strings.Clone(e.Class), strings.Clone(FirstLine(e.Message))
	h.Errors = append(h.Errors, w)
}

func (h hangLog) clone() hangLog {
	return hangLog{Errors: slices.Clone(h.Errors), Children: slices.Clone(h.Children), Gloo: slices.Clone(h.Gloo)}
}

// leadingDigits is the number s holds, -1 when none.
func leadingDigits(s string) int {
	n := -1
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = max(n, 0)*10 + int(c-'0')
	}
	return n
}
