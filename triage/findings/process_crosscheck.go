package findings

import (
	"cmp"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// CounterCheck is a disagreement between what a process counted and what its
// log shows. ProcessBreaks is the number of distinct graph-break reasons the
// process counted, ProcessEvents the number of break events behind them,
// LogBreaks the distinct graph breaks the log shows for that rank.
type CounterCheck struct {
	Rank          int
	ProcessBreaks int
	ProcessEvents int
	LogBreaks     int
	Message       string
	Unimplemented bool // CompileFailureCheck's: compile failures, not graph breaks
	Frames        bool // of those, frames begun and not compiled (counters.frames), not counters.unimplemented
}

// CrossCheck compares, per rank, dynamo's own graph-break counter
// (Counters["graph_break"]) with the distinct graph breaks the log shows
// (logBreaksPerRank; graphBreaksLogged says whether TORCH_LOGS named
// graph_breaks or +dynamo).
//
// How the counts compare: dynamo adds 1 to counters["graph_break"][reason]
// for every break event (every compile, recompile and restart of a frame that
// breaks), while the log's count is of distinct breaks (site, reason). So the
// process side is reduced to its distinct reasons (keys, with hex addresses
// blanked; a "total" key is ignored), never its event sum. Distinct reasons
// and distinct sites are close but not equal (one reason at two sites; one
// site whose reason text changes between recompiles), so a check is made only
// where the answer is unambiguous:
//   - graph_breaks not logged: the process counted more distinct reasons than
//     the log shows (the log then holds at most Tensor.item() warnings);
//   - graph_breaks logged: the log shows none for that rank while the process
//     counted some (its records are missing from the capture).
//
// A rank missing from logBreaksPerRank shows 0 breaks; when the probe saw a
// single rank and the map has no entry for it, the map's total is used (a
// single-process log has no [rankN]: prefixes). Results are sorted by rank.
func CrossCheck(infos []report.ProcessInfo, logBreaksPerRank map[int]int, graphBreaksLogged bool) []CounterCheck {
	reasons := map[int]map[string]bool{}
	events, untraced := map[int]int{}, map[int]int{}
	for _, info := range infos {
		rank := info.RankOf()
		if reasons[rank] == nil {
			reasons[rank] = map[string]bool{}
		}
		for reason, n := range info.Counters["graph_break"] {
			if reason == "total" || n <= 0 {
				continue
			}
			reasons[rank][report.HexAddr.ReplaceAllString(reason, "0x?")] = true
			events[rank] += int(n)
		}
		for reason, n := range info.Counters["unimplemented"] { // 2.14.1 counts a data-dependent branch there
			if n > 0 && !limitReason(reason) {
				untraced[rank]++
			}
		}
	}
	ranks := make([]int, 0, len(reasons))
	for r := range reasons {
		ranks = append(ranks, r)
	}
	sort.Ints(ranks)
	var checks []CounterCheck
	for _, rank := range ranks {
		distinct := len(reasons[rank])
		if distinct == 0 && (graphBreaksLogged || untraced[rank] == 0) {
			continue
		}
		logged, ok := logBreaksPerRank[rank]
		if !ok && len(ranks) == 1 {
			for _, n := range logBreaksPerRank {
				logged += n
			}
		}
		if logged == 0 && rank >= 0 && logBreaksPerRank[-1] > 0 {
			continue // breaks without a rank prefix (printed before the process group existed) may be this rank's
		}
		c := CounterCheck{Rank: rank, ProcessBreaks: distinct, ProcessEvents: events[rank], LogBreaks: logged}
		switch {
		case !graphBreaksLogged && (distinct > logged || untraced[rank] > 0):
			what := counted(distinct, events[rank])
			if n := untraced[rank]; n > 0 { // graph breaks, or failures fullgraph raised: the log would tell
				more := fmt.Sprintf("%d more Dynamo could not trace (a graph break, or a failure fullgraph raised)", n)
				if distinct == 0 {
					what = strings.Replace(more, " more", "", 1)
				} else {
					what += " and " + more
				}
			}
			c.Message = fmt.Sprintf("%sthe process counted %s, the log shows %s — graph_breaks was not logged; enable graph_breaks in TORCH_LOGS",
				rankLead(rank), what, shows(logged))
		case graphBreaksLogged && logged == 0:
			c.Message = fmt.Sprintf("%sthe process counted %s, the log shows none although graph_breaks was on — the program may have silenced torch's logging (logging.disable, its own handlers or levels), or its stderr was not captured",
				rankLead(rank), counted(distinct, events[rank]))
		default:
			continue
		}
		checks = append(checks, c)
	}
	return checks
}

// CompileFailureCheck compares, per process, what Dynamo counted as Unsupported and did not turn into a graph
// break (Counters["unimplemented"]: Dynamo moves an Unsupported that becomes a break to "graph_break"; what stays
// is a fullgraph refusal raised to the program, or a frame Dynamo gave up on) with the log: a process that counted
// some while the log shows no compile error (fatal or caught) and no graph break for its rank had them caught
// without a word, or its output was lost (the gate and verdict cannot rest on that log). logCaught is, per rank
// (-1: none), an exception the program caught and printed bare, named as a failed frame's likely cause. Counts per rank as
// CrossCheck; a log of one process has its counts under -1.
//
// Dynamo's frame counters (begun, compiled) show a frame that did not compile whatever Unsupported counted, where
// the run completed (completed) and the log shows fewer compile errors and limit hits.
//
// What Unsupported stays there is not always a failure (testdata/recorded/probe-unimplemented): a recompile-limit
// hit ("Dynamo recompile limit exceeded", 2.6's "cache_size_limit reached"), which the log shows as a limit hit
// (logLimitsPerRank), and on 2.14.1 a data-dependent branch, which is a graph break: with graph_breaks not logged
// (graphBreaksLogged false) a break cannot be told from a failure, so no check is made (CrossCheck names them).
func CompileFailureCheck(infos []report.ProcessInfo, logErrorsPerRank, logBreaksPerRank, logLimitsPerRank map[int]int, logCaught map[int]string, graphBreaksLogged, completed bool) []CounterCheck {
	var checks []CounterCheck
	single := len(infos) == 1
	for _, info := range infos {
		rank := info.RankOf()
		limits := logLimitsPerRank[rank] + logLimitsPerRank[-1]
		errs, breaks := logErrorsPerRank[rank]+logErrorsPerRank[-1], logBreaksPerRank[rank]
		if single {
			limits, errs, breaks = sumCounts(logLimitsPerRank), sumCounts(logErrorsPerRank), sumCounts(logBreaksPerRank)
		}
		if c, ok := unimplementedCheck(info, rank, limits); ok && graphBreaksLogged && errs == 0 && breaks == 0 {
			checks = append(checks, c)
			continue
		}
		// a frame Dynamo began and did not compile (counters.frames: total, ok) that no compile error or limit
		// hit of the log accounts for: a backend failure the program caught (testdata/recorded/caught-printed);
		// in a run that completed (one stopped while compiling left its frame begun)
		fr := info.Counters["frames"]
		if failed := int(fr["total"] - fr["ok"]); completed && failed > errs+limits {
			why := "the program caught the compile failure without printing its traceback, or its output was not captured"
			if c := cmp.Or(logCaught[rank], logCaught[-1]); c != "" { // printed bare (caught-printed): likely that one
				why = "only an exception the program caught and printed without its traceback (" + c + "): likely that failure"
			}
			checks = append(checks, CounterCheck{Rank: rank, ProcessBreaks: failed, ProcessEvents: failed, Frames: true,
				Message: fmt.Sprintf("%sthe process counted %s (frames: %d begun, %d compiled), the log shows %s — %s",
					rankLead(rank), report.Plural(failed, "frame")+" that did not compile", int(fr["total"]), int(fr["ok"]), noFailureShown(errs, limits), why)})
		}
	}
	sort.Slice(checks, func(i, j int) bool { return checks[i].Rank < checks[j].Rank })
	return checks
}

// unimplementedCheck is the check of what Dynamo counted as Unsupported and did not turn into a graph break
// (counters.unimplemented), less a limit hit the log shows (limits); false when there is none.
func unimplementedCheck(info report.ProcessInfo, rank, limits int) (CounterCheck, bool) {
	var reasons []string
	events := 0
	for reason, n := range info.Counters["unimplemented"] {
		if n > 0 && !(limits > 0 && limitReason(reason)) {
			reasons = append(reasons, reason)
			events += int(n)
		}
	}
	if len(reasons) == 0 {
		return CounterCheck{}, false
	}
	sort.Strings(reasons)
	return CounterCheck{Rank: rank, ProcessBreaks: len(reasons), ProcessEvents: events,
		Message: fmt.Sprintf("%sthe process counted %s Dynamo did not turn into a graph break (%s: fullgraph refused it, or the frame ran eager), the log shows none — the program caught it without printing it, or its output was not captured",
			rankLead(rank), report.Plural(len(reasons), "compile failure"), text.OneLine(report.FirstLine(reasons[0]), 80))}, true
}

// noFailureShown words the compile errors and limit hits a log shows for a process: "no compile error", "only
// 1 limit hit".
func noFailureShown(errs, limits int) string {
	if errs+limits == 0 {
		return "no compile error"
	}
	var parts []string
	if errs > 0 {
		parts = append(parts, report.Plural(errs, "compile error"))
	}
	if limits > 0 {
		parts = append(parts, report.Plural(limits, "limit hit"))
	}
	return "only " + strings.Join(parts, " and ")
}

// limitReason reports Dynamo's Unsupported for a frame past its recompile limit: "Dynamo recompile limit
// exceeded" (2.14.1), "cache_size_limit reached" (2.6).
func limitReason(reason string) bool {
	return strings.HasPrefix(reason, "Dynamo recompile limit exceeded") || strings.Contains(report.FirstLine(reason), "cache_size_limit reached") ||
		strings.Contains(report.FirstLine(reason), "recompile_limit reached")
}

func sumCounts(m map[int]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// rankLead starts a check's message with its rank ("rank 3: "), nothing for a process without rank.
func rankLead(rank int) string {
	if rank < 0 {
		return ""
	}
	return "rank " + strconv.Itoa(rank) + ": "
}

func counted(distinct, events int) string {
	s := fmt.Sprintf("%d graph break", distinct)
	if distinct != 1 {
		s += "s"
	}
	if events != distinct {
		s += " (" + report.Plural(events, "event") + ")"
	}
	return s
}

func shows(n int) string {
	if n == 0 {
		return "none"
	}
	return fmt.Sprint(n)
}
