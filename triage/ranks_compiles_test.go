package triage_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Of a run the tool stopped, ranks whose probes recorded different numbers of compiles are said so, first,
// as what each had done when it was stopped, with the break the extra resume function follows where that rank
// logged it: no difference earned (no finding, no gate failure), no agreement. It said only "not compared".
func TestCompilesDifferWhenStopped(t *testing.T) {
	states := []report.ProbeCompileState{triage.CompileState(0, 1, "0/0", "step", 6), triage.CompileState(1, 2, "1/0", "torch_dynamo_resume_in_step_at_20", 20)}
	a := triage.CompilesRun(2, report.OutcomeStopped, states, func(agg *report.Aggregator) { agg.Add(testlogs.SynthBreak(1, 0, 0, 20, 30)) })
	ra := a.RankAgreement
	const words = "when torchtriage stopped the run, the ranks' probes had recorded different numbers of compiles: " +
		"rank 0: 1 compile (last: [0/0] step at train.py:6); rank 1: 2 compiles (last: [1/0] torch_dynamo_resume_in_step_at_20 " +
		"at train.py:20, which resumes after the graph break print() rank 1 logged there)"
	c := ra.Compiles
	if c == nil || c.When != ranks.CompilesWhenStopped || c.Summary != words || !strings.HasPrefix(ra.Summary, words+"; ranks differ where the log ends: ") ||
		!strings.HasSuffix(ra.Summary, "; not compared: the run did not complete (stopped by torchtriage (timed out after 30s)), so the 2 ranks (0,1) could not be compared") {
		t.Fatalf("summary %q\ncompiles %+v", ra.Summary, c)
	}
	if ra.Agree || ra.Disagree() || len(c.Groups) != 2 || c.Groups[0].AfterBreak != "" || !strings.HasPrefix(c.Groups[1].AfterBreak, "graph_break:") {
		t.Errorf("%+v", ra)
	}
	for _, f := range a.Findings {
		if f.Kind == findings.KindRankDisagreement {
			t.Errorf("finding %s", f.Title)
		}
	}
	if g := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}); len(g.Failures) != 0 ||
		!strings.Contains(g.NotEvaluated["--ranks-agree"], words) {
		t.Errorf("gate %+v, not evaluated %q", g.Failures, g.NotEvaluated)
	}
	// the resume function of a break another rank logged: the log does not show this rank's, no tie
	b := triage.CompilesRun(2, report.OutcomeStopped, states, func(agg *report.Aggregator) { agg.Add(testlogs.SynthBreak(0, 0, 0, 20, 30)) })
	if c := b.RankAgreement.Compiles; c == nil || c.Groups[1].AfterBreak != "" || strings.Contains(c.Summary, "resumes after") {
		t.Errorf("a break rank 1 did not log: %+v", c)
	}
	// JSON: the field under rank_agreement, its ranks as ranges, read back as written
	js, err := json.Marshal(ra)
	var back ranks.RankAgreement
	if err == nil {
		err = json.Unmarshal(js, &back)
	}
	if err != nil || !strings.Contains(string(js), `"compiles_differ":{"when":"stopped","summary":`) ||
		!strings.Contains(string(js), `{"ranks":"1","size":1,"compiles":2,"phase":"idle","compile_id":"1/0"`) ||
		back.Compiles == nil || !slices.Equal(back.Compiles.Groups[1].Ranks, []int{1}) || back.Compiles.Groups[1].AfterBreak != c.Groups[1].AfterBreak {
		t.Errorf("JSON %s (%v), back %+v", js, err, back.Compiles)
	}
}

// The words say when the states were written: what each rank had done when the run ended, or has done so far; of a
// completed run, after its agreement, which stands (rank agreement compares breaks and recompiles, not compiles),
// with a note from --ranks-agree, which passes.
func TestCompilesDifferWhen(t *testing.T) {
	states := []report.ProbeCompileState{triage.CompileState(0, 3, "1/1", "g", 30), triage.CompileState(1, 2, "1/0", "g", 30), triage.CompileState(2, 3, "1/1", "g", 30)}
	const groups = ": ranks 0,2: 3 compiles (last: [1/1] g at train.py:30); rank 1: 2 compiles (last: [1/0] g at train.py:30)"
	for _, c := range []struct {
		o      report.Outcome
		when   string
		prefix string
	}{
		{report.OutcomeRunning, ranks.CompilesWhenSoFar, "so far, the ranks' probes have recorded different numbers of compiles" + groups + "; not compared: the run is still running"},
		{report.OutcomeFailed, ranks.CompilesWhenEnded, "when the run ended, the ranks' probes had recorded different numbers of compiles" + groups + "; not compared: the run did not complete"},
		{report.OutcomeInterrupted, ranks.CompilesWhenLast, "the ranks' probes last recorded different numbers of compiles" + groups + "; not compared: the run did not complete"},
		{report.OutcomeCompleted, ranks.CompilesWhenCompleted, "all 3 ranks agree (0–2); the ranks' probes recorded different numbers of compiles, " +
			"which rank agreement does not compare" + groups},
	} {
		a := triage.CompilesRun(3, c.o, states, nil)
		ra := a.RankAgreement
		if ra.Compiles == nil || ra.Compiles.When != c.when || !strings.HasPrefix(ra.Summary, c.prefix) {
			t.Errorf("%s: %q\nwant prefix %q", c.o, ra.Summary, c.prefix)
			continue
		}
		if ra.Live != (c.o == report.OutcomeRunning) || ra.Disagree() || ra.Agree != (c.o == report.OutcomeCompleted) {
			t.Errorf("%s: %+v", c.o, ra)
		}
		g := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true})
		if c.o == report.OutcomeCompleted && (!g.Passed || !slices.Contains(g.Notes, "--ranks-agree: "+ra.Compiles.Summary)) {
			t.Errorf("completed: gate %+v", g)
		}
	}
	// ranks that differ in what they logged, completed: the difference is earned and said as it is
	a := triage.CompilesRun(2, report.OutcomeCompleted, states[:2], func(agg *report.Aggregator) { agg.Add(testlogs.SynthBreak(1, 1, 0, 20, 30)) })
	if ra := a.RankAgreement; !ra.Disagree() || ra.Compiles != nil || strings.Contains(ra.Summary, "compiles") {
		t.Errorf("an earned difference: %+v", ra)
	}
}

// Equal numbers of compiles are a difference only where every rank was idle and their last compiles
// differ: a rank compiling at equal numbers may be at the next compile the others had not begun. Equal states say
// nothing.
func TestCompilesDifferEqualCounts(t *testing.T) {
	same := []report.ProbeCompileState{triage.CompileState(0, 2, "1/0", "g", 30), triage.CompileState(1, 2, "1/0", "g", 30)}
	plain := triage.CompilesRun(2, report.OutcomeStopped, nil, nil).RankAgreement
	if ra := triage.CompilesRun(2, report.OutcomeStopped, same, nil).RankAgreement; ra.Compiles != nil || ra.Summary != plain.Summary {
		t.Errorf("equal states: %q (without them %q)", ra.Summary, plain.Summary)
	}
	last := []report.ProbeCompileState{triage.CompileState(0, 2, "0/1", "step", 6), triage.CompileState(1, 2, "1/0", "g", 30)}
	const want = "when torchtriage stopped the run, the ranks' probes had recorded the same number of compiles, but not " +
		"the same last one: rank 0: 2 compiles (last: [0/1] step at train.py:6); rank 1: 2 compiles (last: [1/0] g at train.py:30)"
	if ra := triage.CompilesRun(2, report.OutcomeStopped, last, nil).RankAgreement; ra.Compiles == nil || ra.Compiles.Summary != want {
		t.Errorf("equal numbers, different last: %+v\nwant %q", ra.Compiles, want)
	}
	compiling := slices.Clone(last)
	compiling[1].Phase = "compiling"
	if ra := triage.CompilesRun(2, report.OutcomeStopped, compiling, nil).RankAgreement; ra.Compiles != nil {
		t.Errorf("equal numbers, one compiling: %+v", ra.Compiles)
	}
	compiling[1].Compiles = 1 // fewer finished, then compiling: said as such
	if ra := triage.CompilesRun(2, report.OutcomeStopped, compiling, nil).RankAgreement; ra.Compiles == nil ||
		!strings.Contains(ra.Compiles.Summary, "rank 1: 1 compile (then compiling: [1/0] g at train.py:30)") {
		t.Errorf("fewer, then compiling: %+v", ra.Compiles)
	}
}

// A rank whose state is not known (no probe compile state names it, or several processes of it wrote a compile
// state) is said as not known, never as having compiled nothing; where fewer than two ranks' states are known
// nothing is said. A process without RANK (rank source "default": 0 is the probe's default) is no rank.
func TestCompilesDifferNotKnown(t *testing.T) {
	r0, r1, r2 := triage.CompileState(0, 1, "0/0", "step", 6), triage.CompileState(1, 2, "1/0", "g", 30), triage.CompileState(2, 2, "1/0", "g", 30)
	for name, states := range map[string][]report.ProbeCompileState{
		"rank 0's missing": {r1},
		"default source":   {{Rank: 0, RankSource: "default", PID: 1, Phase: "idle", Compiles: 1, Function: "step"}, r1},
		"all default": {{Rank: 0, RankSource: "default", PID: 1, Phase: "idle", Compiles: 1, Function: "step"},
			{Rank: 0, RankSource: "default", PID: 2, Phase: "idle", Compiles: 2, Function: "g"}},
		"two processes of rank 0": {r0, {Rank: 0, RankSource: "env", PID: 9, Phase: "idle", Compiles: 2, Function: "g"}, r1},
	} {
		if ra := triage.CompilesRun(2, report.OutcomeStopped, states, nil).RankAgreement; ra.Compiles != nil || strings.Contains(ra.Summary, "compile (") {
			t.Errorf("%s: %+v", name, ra.Compiles)
		}
	}
	for name, c := range map[string]struct {
		states []report.ProbeCompileState
		tail   string
	}{
		"rank 0's missing": {[]report.ProbeCompileState{r1, {Rank: 2, RankSource: "env", PID: 3, Phase: "idle", Compiles: 3, Function: "h"}},
			"rank 0: not known (no probe compile state names it)"},
		"rank 0's default": {[]report.ProbeCompileState{{Rank: 0, RankSource: "default", PID: 1, Phase: "idle", Compiles: 1}, r1,
			{Rank: 2, RankSource: "env", PID: 3, Phase: "idle", Compiles: 3, Function: "h"}}, "rank 0: not known (no probe compile state names it)"},
		"rank 2's two": {[]report.ProbeCompileState{r0, r1, r2, {Rank: 2, RankSource: "env", PID: 4, Phase: "idle", Compiles: 1}},
			"rank 2: not known (several processes of it wrote a compile state)"},
	} {
		ra := triage.CompilesRun(3, report.OutcomeStopped, c.states, nil).RankAgreement
		if ra.Compiles == nil || !strings.Contains(ra.Compiles.Summary, "the probes of ranks ") || !strings.HasSuffix(ra.Compiles.Summary, c.tail) ||
			len(ra.Compiles.NotKnown) != 1 {
			t.Errorf("%s: %+v", name, ra.Compiles)
		}
	}
	// two ranks of each reason: the plural words
	many := []report.ProbeCompileState{r0, r1, // ranks 2 and 3 wrote none; ranks 4 and 5 two each
		{Rank: 4, RankSource: "env", PID: 5, Phase: "idle", Compiles: 1}, {Rank: 4, RankSource: "env", PID: 6, Phase: "idle", Compiles: 2},
		{Rank: 5, RankSource: "env", PID: 7, Phase: "idle", Compiles: 1}, {Rank: 5, RankSource: "env", PID: 8, Phase: "idle", Compiles: 2}}
	ra := triage.CompilesRun(6, report.OutcomeStopped, many, nil).RankAgreement
	if want := "ranks 2,3: not known (no probe compile state names them); ranks 4,5: not known (several processes of each wrote a " +
		"compile state)"; ra.Compiles == nil || !strings.HasSuffix(ra.Compiles.Summary, want) {
		t.Errorf("several ranks of each reason: %+v\nwant …%s", ra.Compiles, want)
	}
}
