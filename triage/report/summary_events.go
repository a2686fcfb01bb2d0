package report

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// LimitSummary is one recompile-limit hit.
type LimitSummary struct {
	Limit      string `json:"limit"`
	Value      int    `json:"value"`
	Function   string `json:"function"`
	File       string `json:"file"`
	Line       int    `json:"line"`
	LastReason string `json:"last_reason"`
	Rank       int    `json:"rank"` // of the first hit
	CompileID  string `json:"compile_id,omitempty"`
	Records    int    `json:"records"` // identical hits (same function, limit and last reason) grouped
	Ranks      []int  `json:"ranks"`
	// Raised: torch raised FailOnRecompileLimitHit on this hit's rank (fail_on_recompile_limit_hit, or fullgraph):
	// the frame did not go on eager, the call failed
	Raised   bool     `json:"raised,omitempty"`
	Evidence Evidence `json:"-"`
}

// LimitWords names the limit a hit reached, with its value, as far as the input says them: "config.recompile_limit
// (8)"; a hit known only from a trace (2.6: a compile whose recompile reasons were logged and that never reached
// compilation_metrics) names neither: "a recompile limit (the input names neither which nor its value)".
func (l LimitSummary) LimitWords() string {
	switch {
	case l.Limit != "" && l.Value > 0:
		return fmt.Sprintf("config.%s (%d)", l.Limit, l.Value)
	case l.Limit != "":
		return "config." + l.Limit + " (its value is not in the input)"
	case l.Value > 0:
		return fmt.Sprintf("a recompile limit of %d (the input does not name which)", l.Value)
	}
	return "a recompile limit (the input names neither which nor its value)"
}

// LimitRaised is the exception torch raises at a recompile limit hit instead of running the frame eager.
const LimitRaised = "FailOnRecompileLimitHit"

// markRaised sets Raised on the limit hits of ranks where torch raised FailOnRecompileLimitHit (caught or not).
func markRaised(limits []LimitSummary, errors []ErrorSummary) {
	raised := map[int]bool{}
	for _, e := range errors {
		if c := e.Class[strings.LastIndexByte(e.Class, '.')+1:]; c == LimitRaised || c == "FailOnCacheLimitHit" {
			raised[e.Rank] = true
		}
	}
	for i := range limits {
		limits[i].Raised = raised[limits[i].Rank]
	}
}

// Then says what happens to the frame after the hit.
func (l LimitSummary) Then() string {
	if l.Raised {
		return "torch raised " + LimitRaised + ": the call failed"
	}
	return "after this the frame runs eager"
}

func (a *Aggregator) limitSummary(r *logparse.Record) LimitSummary {
	l, in := r.Limit, a.names.of
	return LimitSummary{Limit: in(l.Limit), Value: l.Value, Function: in(l.Function), File: in(l.File), Line: l.Line,
		LastReason: strings.Clone(l.LastReason), Rank: r.Rank, CompileID: r.CompileID.String(),
		Evidence: a.evidenceAt(r, l.File, l.Line)}
}

// SkipSummary is one CUDA-graph skip reason.
type SkipSummary struct {
	Reason string `json:"reason"`
	// File, Line and Function are the user frame of the skip's "Found from" stack, when it names one.
	File     string     `json:"file,omitempty"`
	Line     int        `json:"line,omitempty"`
	Function string     `json:"function,omitempty"`
	Records  int        `json:"records"`
	Ranks    []int      `json:"ranks"`
	Evidence []Evidence `json:"-"`
	rankSet  map[int]bool
	ranks    perRank
}

// skipKey is a skip's reason and the site its stack names: one reason at two sites is two findings.
type skipKey struct {
	reason, file string
	line         int
}

func (a *Aggregator) addSkip(r *logparse.Record, ra *rankAgg) {
	reason := HexAddr.ReplaceAllString(r.Skip.Reason, "0x…")
	fr := r.Skip.Frame
	k := skipKey{reason, fr.File, fr.Line}
	s := a.skips[k]
	if s == nil {
		k.reason = strings.Clone(reason)
		in := a.names.of
		s = &SkipSummary{Reason: k.reason, File: in(fr.File), Line: fr.Line, Function: in(fr.Func), rankSet: map[int]bool{}}
		k.file = s.File
		a.skips[k] = s
	}
	s.Records++
	s.ranks.note(r)
	if r.Rank >= 0 {
		s.rankSet[r.Rank] = true
	}
	if len(s.Evidence) < MaxEvidence {
		s.Evidence = append(s.Evidence, a.evidenceOwned(r, s.File, s.Line))
	}
	if ra != nil {
		ra.c.CudagraphSkips++
	}
}

// ErrorSummary is one fatal compile error.
type ErrorSummary struct {
	Class   string `json:"class"`
	Message string `json:"message"`
	Inner   string `json:"inner,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Rank    int    `json:"rank"` // of the first one
	Input   string `json:"input"`
	Records int    `json:"records"` // identical errors (class, message, site) grouped: one per dying process
	Ranks   []int  `json:"ranks"`
	// Caught: no process died of it: the program caught it, logged it (logger.exception) and went on, or the run
	// it came from exited 0 (AnalyzeRun). Compile: of those, one torch.compile raised (logparse FromCompile): the
	// frame did not compile, and the analysis names it as a compile error the program caught.
	Caught  bool `json:"caught,omitempty"`
	Compile bool `json:"compile,omitempty"`
	// Suppressed: Dynamo gave up on the frame itself (WON'T CONVERT, suppress_errors): it runs eager on every call
	Suppressed bool `json:"suppressed,omitempty"`
	// Function is the function of the user frame, where the input names it (a WON'T CONVERT's frame)
	Function string `json:"-"`
	// RaisedHere: the traceback's last frame is the user frame: the program's own line raised it, no library or
	// torch frame below it
	RaisedHere bool `json:"-"`
	// Interrupt: the exception was raised while handling an interrupt (KeyboardInterrupt, SystemExit,
	// SignalException) or wraps one: the process went down because it was stopped, so no process died of it
	Interrupt string `json:"interrupt,omitempty"`
	// PeerGone: a collective of this rank failed because its peer went away ("Connection closed by peer") after
	// another rank failed first (FirstFailure): it died of that failure, not of its own
	PeerGone  bool `json:"peer_gone,omitempty"`
	AfterRank int  `json:"-"` // the first failure's rank, for PeerGone
	// Cause is the exception it was raised from ("DistStoreError: use_libuv was requested …"), "" when none shows.
	Cause string `json:"cause,omitempty"`
	// TorchLogs: raised while torch read TORCH_LOGS at import (torch/_logging/_internal.py _init_logs): the
	// setting was rejected, whatever the class (a dotted name of no module: ModuleNotFoundError)
	TorchLogs bool     `json:"-"`
	Evidence  Evidence `json:"-"`
}

func (a *Aggregator) errorSummary(r *logparse.Record) ErrorSummary {
	e, in := r.Error, a.names.of
	return ErrorSummary{Class: in(e.Class), Message: strings.Clone(e.Message), Inner: strings.Clone(e.Inner), Cause: strings.Clone(e.Cause),
		File: in(e.Frame.File), Line: e.Frame.Line, Rank: r.Rank, Input: in(r.Input), Caught: e.Caught, Suppressed: e.Suppressed, Function: in(e.Frame.Func), RaisedHere: raisedHere(e),
		Compile: e.Caught && e.FromCompile(), Interrupt: interruptOf(e), TorchLogs: readingTorchLogs(e.Frames),
		Evidence: a.evidenceAt(r, e.Frame.File, e.Frame.Line)}
}

// readingTorchLogs reports a traceback through torch's reading of TORCH_LOGS at import (_init_logs).
func readingTorchLogs(frames []logparse.Frame) bool {
	for _, f := range frames {
		if f.Func == "_init_logs" && strings.HasSuffix(strings.ReplaceAll(f.File, `\`, "/"), "torch/_logging/_internal.py") {
			return true
		}
	}
	return false
}

// interruptOf names the interrupt an exception that is not one itself went down under: the chain's (Interrupt),
// or its inner error's (a compile failure wrapping KeyboardInterrupt); "" for the interrupt itself or none.
func interruptOf(e *logparse.CompileError) string {
	switch {
	case e.Interrupt != "":
		return e.Interrupt
	case e.Interrupted && e.Inner != "": // only an interrupt class makes a wrapped error Interrupted
		return e.Inner[strings.LastIndexByte(e.Inner, '.')+1:]
	}
	return ""
}

// groupLimits folds identical limit hits (one per event) into one entry with a count and the ranks.
func groupLimits(events []LimitSummary) []LimitSummary {
	type key struct {
		limit, function, file, reason string
		value, line                   int
	}
	out := groupEvents(events, func(e *LimitSummary) (key, int, *int, *[]int) {
		return key{e.Limit, e.Function, e.File, CidPrefix.ReplaceAllString(e.LastReason, ""), e.Value, e.Line},
			e.Rank, &e.Records, &e.Ranks
	})
	sort.SliceStable(out, func(i, j int) bool { // a stable order, whatever order the events came in
		x, y := out[i], out[j]
		if x.File != y.File || x.Line != y.Line {
			return x.File < y.File || x.File == y.File && x.Line < y.Line
		}
		if x.Function != y.Function {
			return x.Function < y.Function
		}
		if x.Limit != y.Limit {
			return x.Limit < y.Limit
		}
		return CidPrefix.ReplaceAllString(x.LastReason, "") < CidPrefix.ReplaceAllString(y.LastReason, "")
	})
	return out
}

// peerGoneTexts are gloo's words for a collective whose peer process went away (pair.cc; testdata/recorded/peer-abort).
var peerGoneTexts = []string{"Connection closed by peer", "Connection reset by peer"}

// markPeerGone sets PeerGone on the errors of ranks other than the first failure's whose collective lost its peer.
func markPeerGone(errs []ErrorSummary, ff *FirstFailure) {
	if ff == nil || ff.Rank < 0 {
		return
	}
	for i := range errs {
		e := &errs[i]
		if e.Rank >= 0 && e.Rank != ff.Rank && slices.ContainsFunc(peerGoneTexts, func(t string) bool { return strings.Contains(e.Message, t) }) {
			e.PeerGone, e.AfterRank = true, ff.Rank
		}
	}
}

// groupErrors folds identical errors into one entry with a count and the ranks.
func groupErrors(events []ErrorSummary) []ErrorSummary {
	type key struct {
		class, inner, msg, file string
		line                    int
		caught                  bool
	}
	out := groupEvents(events, func(e *ErrorSummary) (key, int, *int, *[]int) {
		return key{e.Class, e.Inner, HexAddr.ReplaceAllString(e.Message, "0x…"), e.File, e.Line, e.Caught}, e.Rank, &e.Records, &e.Ranks
	})
	sort.SliceStable(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.Class != y.Class {
			return x.Class < y.Class
		}
		if x.File != y.File || x.Line != y.Line {
			return x.File < y.File || x.File == y.File && x.Line < y.Line
		}
		return x.Message < y.Message
	})
	return out
}

// groupEvents keeps the first of the events that share a key, with the number of them and their ranks. fields
// gives an event's key, its rank, and where the group's count and ranks go.
func groupEvents[T any, K comparable](events []T, fields func(*T) (K, int, *int, *[]int)) []T {
	out := []T{}
	at := map[K]int{}
	ranks := map[int]map[int]bool{}
	for _, e := range events {
		k, rank, _, _ := fields(&e)
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, e)
			_, _, n, _ := fields(&out[i])
			*n = 0
			ranks[i] = map[int]bool{}
		}
		_, _, n, _ := fields(&out[i])
		*n++
		if rank >= 0 {
			ranks[i][rank] = true
		}
	}
	for i := range out {
		_, _, _, rs := fields(&out[i])
		*rs = SortedInts(ranks[i])
	}
	return out
}

var CidPrefix = regexp.MustCompile(`^!?[0-9]+(/[0-9]+)+(_[0-9]+)?:\s*`)

// raisedHere reports a traceback whose last frame is its user frame: the program's line raised the exception.
func raisedHere(e *logparse.CompileError) bool {
	if len(e.Frames) == 0 || e.Frame.File == "" {
		return false
	}
	last := e.Frames[len(e.Frames)-1]
	return last.File == e.Frame.File && last.Line == e.Frame.Line
}
