package probe

import (
	"fmt"
	"regexp"
	"sort"
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
}

var hexAddr = regexp.MustCompile(`0x[0-9a-fA-F]+`)

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
func CrossCheck(infos []Info, logBreaksPerRank map[int]int, graphBreaksLogged bool) []CounterCheck {
	reasons := map[int]map[string]bool{}
	events := map[int]int{}
	for _, info := range infos {
		if reasons[info.Rank] == nil {
			reasons[info.Rank] = map[string]bool{}
		}
		for reason, n := range info.Counters["graph_break"] {
			if reason == "total" || n <= 0 {
				continue
			}
			reasons[info.Rank][hexAddr.ReplaceAllString(reason, "0x?")] = true
			events[info.Rank] += int(n)
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
		if distinct == 0 {
			continue
		}
		logged, ok := logBreaksPerRank[rank]
		if !ok && len(ranks) == 1 {
			for _, n := range logBreaksPerRank {
				logged += n
			}
		}
		c := CounterCheck{Rank: rank, ProcessBreaks: distinct, ProcessEvents: events[rank], LogBreaks: logged}
		switch {
		case !graphBreaksLogged && distinct > logged:
			c.Message = fmt.Sprintf("rank %d: the process counted %s, the log shows %s — graph_breaks was not logged; enable graph_breaks in TORCH_LOGS",
				rank, counted(distinct, events[rank]), shows(logged))
		case graphBreaksLogged && logged == 0:
			c.Message = fmt.Sprintf("rank %d: the process counted %s, the log shows none although graph_breaks was logged — this rank's log output is missing; check that its stderr is captured",
				rank, counted(distinct, events[rank]))
		default:
			continue
		}
		checks = append(checks, c)
	}
	return checks
}

func counted(distinct, events int) string {
	s := fmt.Sprintf("%d graph break", distinct)
	if distinct != 1 {
		s += "s"
	}
	if events != distinct {
		s += fmt.Sprintf(" (%d events)", events)
	}
	return s
}

func shows(n int) string {
	if n == 0 {
		return "none"
	}
	return fmt.Sprint(n)
}
