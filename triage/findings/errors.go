package findings

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

func SkipFinding(s *report.SkipSummary, snap *report.DetailSnap, set *playbooks.Set, rw func([]int) string) Finding {
	f := Finding{Kind: KindCudagraphSkip, Records: s.Records, Ranks: s.Ranks, Evidence: s.Evidence,
		File: s.File, Line: s.Line, Function: s.Function, What: normalizeText(s.Reason, 50)}
	ApplyPlaybook(&f, MatchPlaybook(set, playbooks.Query{Kind: KindCudagraphSkip, Reason: s.Reason}))
	f.ID = "cudagraph_skip:" + digits.ReplaceAllString(normalizeText(s.Reason, 120), "N")
	f.Key = f.ID // skips compare by reason; the site tells a moved one (diff)
	if s.File != "" {
		f.ID += "@" + text.Site(s.File, s.Line)
	}
	if snap != nil {
		f.RankStats = snap.Skips[s]
	}
	if f.RankStats == nil {
		f.RankStats = ranksFromEvidence(s.Ranks, s.Evidence, s.Records)
	}
	f.addCompileIDs(s.Evidence)
	f.Title = "CUDA graphs skipped: " + text.OneLine(s.Reason, text.TitleMax) // the rows and the gate add File and Line
	var d strings.Builder
	fmt.Fprintf(&d, "Reason: %s\nRecords: %d · %s", s.Reason, s.Records, rw(s.Ranks))
	if s.File != "" {
		fmt.Fprintf(&d, "\nYour code: %s:%d %s", s.File, s.Line, s.Function)
	}
	d.WriteString("\nThe graph runs without CUDA graphs (mode=\"reduce-overhead\" gains nothing for it).")
	f.Detail = d.String()
	return f
}

// errorFindings groups fatal errors (compile errors, or runtime errors: kind) by class, inner error and first
// message line.
func ErrorFindings(errs []report.ErrorSummary, kind Kind, set *playbooks.Set, ff *report.FirstFailure) []Finding {
	type ekey struct {
		class, inner, msg string
		peerGone          bool
	}
	keyOf := func(e report.ErrorSummary) ekey {
		return ekey{e.Class, e.Inner, normalizeText(report.Headline(e.Message), 100), e.PeerGone}
	}
	var firstKey *ekey // the group of the first failure, when the order of the failures is known
	if ff != nil && ff.By != "unknown_order" {
		k := keyOf(ff.ErrorSummary)
		firstKey = &k
	}
	keys, out := groupErrors(errs, keyOf, func(e report.ErrorSummary) *Finding { return newErrorFinding(e, kind, set) })
	for i, k := range keys {
		out[i].FirstFailure = firstKey != nil && *firstKey == k
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// groupErrors gathers errs into one finding per key, made by newF from the first error of its key, each with the
// events and ranks of all of them; keys and findings in the order their keys first come.
func groupErrors[K comparable](errs []report.ErrorSummary, key func(report.ErrorSummary) K,
	newF func(report.ErrorSummary) *Finding) ([]K, []Finding) {
	groups := map[K]*Finding{}
	var order []K
	for _, e := range errs {
		k := key(e)
		f := groups[k]
		if f == nil {
			f = newF(e)
			groups[k] = f
			order = append(order, k)
		}
		f.addEvent(e.Evidence, e.Rank, e.Evidence.CompileID)
	}
	out := make([]Finding, 0, len(order))
	for _, k := range order {
		f := groups[k]
		f.Ranks = RanksOf(f.RankStats)
		out = append(out, *f)
	}
	return order, out
}

// caughtTitle ends the title of an error the program caught (the verdict's reason, which says so, leaves it out).
const CaughtTitle = " (caught by the program, which went on)"

func newErrorFinding(e report.ErrorSummary, kind Kind, set *playbooks.Set) *Finding {
	short := e.Class[strings.LastIndexByte(e.Class, '.')+1:]
	cause := report.ErrorCause(e.Class, e.Inner, joinCause(e.Message, e.Cause))
	if e.TorchLogs {
		cause = "invalid TORCH_LOGS"
	}
	q := playbooks.Query{Kind: kind, ErrorClass: e.Class, Reason: joinCause(e.Message, e.Cause)} // the cause may name the playbook
	if e.TorchLogs {                                                                             // whatever the class (a dotted name of no module: ModuleNotFoundError), the setting was rejected
		q.Reason = "TORCH_LOGS rejected at import: " + q.Reason
	} else if programRaised(e, kind, cause) {
		q.Reason = programRaisedPrefix + q.Reason
		if cause == "" {
			cause = "the program's own error"
		}
	}
	fullgraph := strings.HasSuffix(e.Class, "exc.Unsupported")
	if strings.HasPrefix(e.Class, "torch._dynamo.exc.") && strings.Contains(e.Message, "Explanation:") {
		// 2.8+ prints a graph-break record's gb_type, explanation and link in the errors of Dynamo's that are one
		// (Unsupported under fullgraph, TorchRuntimeError "RuntimeError when making fake tensor call"): the GB id
		// and gb_type decide before the class
		q.GBType = strings.TrimSpace(report.FirstLine(e.Message))
		if m := report.GbInMsg.FindStringSubmatch(e.Message); m != nil {
			q.GBID = "GB" + m[1]
		}
	}
	// A WON'T CONVERT of an Unsupported is Dynamo's soft failure (convert_frame logs it at INFO, shown under
	// TORCH_LOGS=+dynamo): it skipped the frame by design (a generator, a frame it cannot start in), under no
	// fullgraph and no suppress_errors. Its message (`generator`, …) names the playbook, not the class that
	// fullgraph raises. (A recompile-limit hit's WON'T CONVERT is the limit's record, no error: logparse.)
	skipped := e.Suppressed && fullgraph
	if skipped {
		fullgraph, q.ErrorClass, cause = false, "", skippedFrameCause
	}
	if cause == customOpNoFake && strings.HasSuffix(e.Class, "TorchRuntimeError") {
		// TorchRuntimeError wraps whatever failed on fake tensors (2.6 names no GB id): the message's cause decides
		q.ErrorClass = ""
	}
	f := &Finding{Kind: kind, Severity: "high", File: e.File, Line: e.Line, What: short, RankStats: map[int]report.RankStat{}}
	if e.Inner != "" {
		f.What = short + "/" + e.Inner
	}
	ApplyPlaybook(f, MatchPlaybook(set, q))
	f.Category, f.Expected = CategoryFix, false
	f.ID = string(kind) + ":" + e.Class
	switch {
	case e.Suppressed:
		f.ID, f.Caught, f.Suppressed = string(kind)+":wont_convert:"+e.Class, true, true
	case e.Caught:
		f.ID, f.Caught = string(kind)+":caught:"+e.Class, true
	}
	if e.Inner != "" {
		f.ID += "/" + e.Inner
	}
	f.Key = f.ID
	gist := text.OneLine(report.HexAddr.ReplaceAllString(report.ErrorGist(e.Message), "0x…"), text.TitleMax) // the group's events differ in addresses
	// raised from another exception, which says why: the cause is kept whole (it often says what to do: "run with
	// USE_LIBUV=0 to disable it."), the outer message gives way where both do not fit
	if e.Cause != "" {
		cause := " (caused by " + text.OneLine(report.HexAddr.ReplaceAllString(e.Cause, "0x…"), text.TitleMax) + ")"
		gist = text.OneLine(gist, max(text.TitleMax-utf8.RuneCountInString(cause), text.TitleMax/4)) + cause
	}
	switch {
	case cause != "":
		f.Title = fmt.Sprintf("%s: %s — %s", cause, f.What, gist)
	default:
		f.Title = fmt.Sprintf("%s: %s", f.What, gist)
	}
	switch {
	case skipped:
		f.Title = fmt.Sprintf("%s never compiles: Dynamo skipped it (WON'T CONVERT: %s — %s) and runs it eager on every call",
			cmp.Or(e.Function, "a frame"), short, gist)
		f.Why = "Dynamo refused this frame (torch._dynamo.exc.Unsupported) and skipped it, as it does for such a frame " +
			"by design, logging WON'T CONVERT at INFO level: the frame runs without torch.compile on every call. No " +
			"setting made it so (not fullgraph, not suppress_errors); only TORCH_LOGS=+dynamo shows it."
	case e.Suppressed:
		f.Title = fmt.Sprintf("%s never compiles: Dynamo gave up on it (WON'T CONVERT) and runs it eager on every call — %s",
			cmp.Or(e.Function, "a frame"), f.Title)
		f.Why = "Dynamo caught this compile error itself (torch._dynamo.config.suppress_errors = True) and logged WON'T " +
			"CONVERT: the frame runs without torch.compile on every call, silently, with no graph break or error to show it."
	case e.Caught:
		f.Title += CaughtTitle
	}
	if e.PeerGone { // its collective lost the peer that failed first: not a crash of its own
		f.PeerGone, f.Severity, f.Category = true, "medium", "consider"
		f.Title = fmt.Sprintf("rank %d lost its peer after rank %d failed first: %s", e.Rank, e.AfterRank, f.Title)
	}
	var d strings.Builder
	fmt.Fprintf(&d, "%s: %s", e.Class, e.Message)
	if e.Inner != "" {
		fmt.Fprintf(&d, "\nInner error: %s", e.Inner)
	}
	if e.Cause != "" {
		fmt.Fprintf(&d, "\nRaised from: %s", e.Cause)
	}
	if cause != "" {
		fmt.Fprintf(&d, "\nCause: %s", cause)
	}
	if e.File != "" {
		fmt.Fprintf(&d, "\nAt %s:%d", e.File, e.Line)
	}
	if skipped {
		d.WriteString("\n" + f.Why + " The playbook is its message's: change the code so that Dynamo can compile " +
			"the frame, or call it from a compiled function that Dynamo can inline it into.")
	} else if e.Suppressed {
		d.WriteString("\n" + f.Why + " Fix the error (the playbook is its cause's), then set suppress_errors back " +
			"to False so that a failure shows.")
	} else if e.Caught {
		d.WriteString("\nNo process has died of it: the program caught it and went on (it logged more after it, the run " +
			"exited 0, or its process still runs). torch.compile failed for this frame all the same: it ran without " +
			"compile (eager, if the program falls back), or not at all.")
	}
	if kind == KindRuntimeError {
		d.WriteString("\nThe process died of it. It is not a compile error: not a torch._dynamo/_inductor exception, " +
			"and no compile-failure epilogue.")
	}
	if fullgraph && q.GBType != "" && strings.HasPrefix(f.Playbook, "gb-") { // fullgraph refused a break the gb-* playbook is about
		f.Why = "fullgraph=True (or error_on_graph_break) made this graph break an error: the frame did not compile at " +
			"all and nothing resumes after the break; the call fails unless the program catches the error."
		d.WriteString("\n" + f.Why + " The playbook is the break's: its fix applies; what it says of a split " +
			"and a resumed graph happens only without fullgraph.")
		f.Related = append([]string{"err-fullgraph-unsupported"}, slices.DeleteFunc(f.Related, func(id string) bool { return id == "err-fullgraph-unsupported" })...)
	}
	f.Detail = d.String()
	return f
}

// joinCause is an error's message with the message of the exception it was raised from, for the rules that read both.
func joinCause(msg, cause string) string {
	if cause == "" {
		return msg
	}
	return msg + "\n" + cause
}

// addCompileIDs adds the compile ids the evidence names, each once.
func (f *Finding) addCompileIDs(ev []report.Evidence) {
	for _, e := range ev {
		if e.CompileID != "" && !report.ContainsString(f.CompileIDs, e.CompileID) {
			f.CompileIDs = append(f.CompileIDs, e.CompileID)
		}
	}
}

// skippedFrameCause is the cause of an Unsupported Dynamo logged WON'T CONVERT for: it skipped the frame.
const skippedFrameCause = "Dynamo skipped the frame (Unsupported)"

// customOpNoFake is report.ErrorCause's cause of a custom op traced without a fake kernel.
const customOpNoFake = "custom op without a fake kernel (register_fake)"

// programRaisedPrefix marks the query of a runtime error the program's own code raised (err-program-exception).
const programRaisedPrefix = "raised in the program's own code: "

// programRaised reports a runtime error of Python's own classes (ValueError, RuntimeError: no module in the name)
// raised by a line of the program's file (the traceback's last frame), not a library's or torch's, with no cause torch words: the program
// died of its own exception, which it would raise without compile too.
func programRaised(e report.ErrorSummary, kind Kind, cause string) bool {
	return kind == KindRuntimeError && cause == "" && !e.PeerGone && e.RaisedHere && !logparse.IsLibraryFile(e.File) &&
		!strings.Contains(e.Class, ".") && e.Class != "KeyboardInterrupt" && e.Class != "SystemExit"
}
