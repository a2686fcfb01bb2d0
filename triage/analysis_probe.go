package triage

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// probeFindings turns the probe files into config_parity (settings that differ between ranks) and
// probe_mismatch (the process counted breaks the log does not show) findings.
// completed: the run ran to its end (a frame a stopped run was compiling when it stopped is no failure).
func probeFindings(rep *report.Report, probes []report.ProcessInfo, set *playbooks.Set, breaksLogged, completed bool) []findings.Finding {
	if len(probes) == 0 {
		return nil
	}
	var out []findings.Finding
	for _, d := range report.ConfigParity(probes) {
		f := findings.Finding{Kind: findings.KindConfigParity, Severity: "high", What: d.Key, ID: "config_parity:" + d.Key,
			Title: "Ranks run with different settings: " + text.OneLine(d.String(), 120), Detail: d.String(),
			RankStats: map[int]report.RankStat{}, Evidence: []report.Evidence{}}
		for _, ranks := range d.Values {
			for _, r := range ranks {
				f.RankStats[r] = report.StatN(1)
			}
		}
		for _, p := range probes {
			if _, ok := f.RankStats[p.Rank]; ok && len(f.Evidence) < report.MaxEvidence {
				f.Evidence = append(f.Evidence, report.Evidence{Rank: p.Rank, Input: p.File})
			}
		}
		f.Ranks, f.Records = findings.RanksOf(f.RankStats), len(d.Values)
		findings.ApplyPlaybook(&f, findings.MatchPlaybook(set, playbooks.Query{Kind: findings.KindConfigParity, Reason: parityReason(d)}))
		f.Key = f.ID
		out = append(out, f)
	}
	perRank := logBreaksPerRank(rep)
	errsPerRank := map[int]int{}
	for _, e := range append(rep.ErrorEvents(), findings.CaughtCompiles(rep.ExceptionEvents())...) {
		errsPerRank[e.Rank]++
	}
	limitsPerRank := map[int]int{}
	for _, l := range rep.LimitEvents() {
		limitsPerRank[l.Rank] += max(l.Records, 1) // an event is one hit
	}
	caught := map[int]string{} // per rank, an exception the program caught and printed bare: what a failed frame likely raised
	for _, e := range rep.ExceptionEvents() {
		if _, ok := caught[e.Rank]; !ok && e.Caught && e.Interrupt == "" {
			caught[e.Rank] = text.OneLine(e.Class+": "+e.Message, 100)
		}
	}
	failures := findings.CompileFailureCheck(probes, errsPerRank, perRank, limitsPerRank, caught, breaksLogged, completed)
	for i := range failures {
		failures[i].Unimplemented = true
	}
	for _, c := range append(findings.CrossCheck(probes, perRank, breaksLogged), failures...) {
		id, what := fmt.Sprintf("probe_mismatch:rank%d", c.Rank), "breaks not logged"
		if breaksLogged {
			what = "breaks not in the log" // logged, but they did not reach it
		}
		if c.Rank < 0 {
			id = "probe_mismatch:process"
		}
		detail := fmt.Sprintf("%s\nThe process counted %s in %s; the log shows %d.",
			c.Message, report.Plural(c.ProcessBreaks, "distinct graph break"), report.Plural(c.ProcessEvents, "event"), c.LogBreaks)
		switch {
		case c.Frames:
			id, what = id+":compile_failures", "compile failures not logged"
			detail = fmt.Sprintf("%s\nDynamo began %s it did not compile (counters[\"frames\"]: total less ok); the log shows no compile error or limit hit for it.",
				c.Message, report.Plural(c.ProcessBreaks, "frame"))
		case c.Unimplemented:
			id, what = id+":compile_failures", "compile failures not logged"
			detail = fmt.Sprintf("%s\nDynamo counted %s (counters[\"unimplemented\"]); the log shows no compile error and no graph break for it.",
				c.Message, report.Plural(c.ProcessBreaks, "compile failure"))
		}
		f := findings.Finding{Kind: findings.KindProbeMismatch, What: what, ID: id,
			Title: c.Message, Records: c.ProcessEvents, Ranks: findings.NonNeg([]int{c.Rank}), Evidence: []report.Evidence{},
			Detail: detail, RankStats: map[int]report.RankStat{c.Rank: report.StatN(1)}, SilentFailure: c.Frames || c.Unimplemented}
		for _, p := range probes {
			if p.RankOf() == c.Rank {
				f.Evidence = append(f.Evidence, report.Evidence{Rank: c.Rank, Input: p.File})
				break
			}
		}
		findings.ApplyPlaybook(&f, findings.MatchPlaybook(set, playbooks.Query{Kind: findings.KindProbeMismatch, Reason: c.Message}))
		f.Key = f.ID
		out = append(out, f)
	}
	return out
}

// logBreaksPerRank is the distinct graph breaks the log shows per rank (-1: records without a rank).
func logBreaksPerRank(rep *report.Report) map[int]int {
	perRank := map[int]int{}
	for k, c := range rep.PerRank {
		if r, err := strconv.Atoi(k); err == nil {
			perRank[r] = c.GraphBreaks
		}
	}
	if len(perRank) == 0 {
		perRank[-1] = rep.Counts.GraphBreaks
	} else {
		for _, b := range rep.GraphBreaks { // records without a rank prefix in a job of ranks
			if len(b.Ranks) == 0 {
				perRank[-1]++
			}
		}
	}
	return perRank
}

// logSilenced says which process counted graph breaks (the probe) its log does not show although graph_breaks
// was on (CrossCheck's second case): "the process counted 1 graph break its log does not show", "rank 1 counted
// 2 graph breaks …"; "" when none did or graph_breaks was not on.
func logSilenced(rep *report.Report, probes []report.ProcessInfo, graphBreaksLogged bool) string {
	if len(probes) == 0 || !graphBreaksLogged {
		return ""
	}
	var who []string
	for _, c := range findings.CrossCheck(probes, logBreaksPerRank(rep), true) {
		w := "the process counted "
		if c.Rank >= 0 {
			w = "rank " + strconv.Itoa(c.Rank) + " counted "
		}
		who = append(who, w+report.Plural(c.ProcessBreaks, "graph break"))
	}
	if len(who) == 0 {
		return ""
	}
	if len(who) == 1 {
		return who[0] + " its log does not show"
	}
	return strings.Join(who, ", ") + " their logs do not show"
}

// parityReason words a difference for the matcher: "config dynamo.recompile_limit differs between ranks: …".
func parityReason(d report.Difference) string {
	what := "config"
	switch {
	case strings.HasPrefix(d.Key, "env."):
		what = "environment variable"
	case strings.HasPrefix(d.Key, "version."):
		what = "version"
	}
	return what + " " + d.Key + " differs between ranks: " + d.String()
}
