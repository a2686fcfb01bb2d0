package triage

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
)

// Verdict says whether the run reached a steady state: no recompile beyond automatic dynamic's expected first
// one, no graph break that is not by design, no recompile-limit hit or fatal error, ranks (and their settings)
// agree. UniqueGraphs is the number of graphs compiled when known (probe counters, else TORCH_TRACE), else -1.
type Verdict struct {
	Steady       bool     `json:"steady"`
	Reasons      []string `json:"reasons"`
	UniqueGraphs int      `json:"unique_graphs"`
	Summary      string   `json:"summary"`
}

// tally counts what the verdict and the next step look at.
type tally struct {
	breaks, unexpectedBreaks, expectedBreaks int
	recompiles, unexpectedRecompiles         int
	limits, skips, errors, fullgraphErrors   int
	parity                                   int
	firstBreak, firstRecompile, firstLimit   *Finding
	firstError                               *Finding
}

func countFindings(fs []Finding) tally {
	var t tally
	for i := range fs {
		f := &fs[i]
		switch f.Kind {
		case KindGraphBreak:
			t.breaks++
			if f.Expected {
				t.expectedBreaks++
			} else {
				t.unexpectedBreaks++
				if t.firstBreak == nil {
					t.firstBreak = f
				}
			}
		case KindRecompile:
			t.recompiles += f.Records
			t.unexpectedRecompiles += f.unexpected
			if f.unexpected > 0 && t.firstRecompile == nil {
				t.firstRecompile = f
			}
		case KindLimitHit:
			t.limits += f.Records
			if t.firstLimit == nil {
				t.firstLimit = f
			}
		case KindCudagraphSkip:
			t.skips += f.Records
		case KindCompileError:
			t.errors += f.Records
			if strings.HasSuffix(f.What, "Unsupported") {
				t.fullgraphErrors += f.Records
			}
			if t.firstError == nil {
				t.firstError = f
			}
		case KindConfigParity:
			t.parity++
		}
	}
	return t
}

func verdictOf(rep *Report, fs []Finding, ra RankAgreement, probes []ProcessInfo) Verdict {
	t := countFindings(fs)
	v := Verdict{UniqueGraphs: uniqueGraphs(probes), Reasons: []string{}}
	if v.UniqueGraphs < 0 && len(rep.Compiles) > 0 {
		v.UniqueGraphs = rep.UniqueGraphs
	}
	var short []string
	add := func(label, format string, args ...any) {
		short = append(short, label)
		v.Reasons = append(v.Reasons, fmt.Sprintf(format, args...))
	}
	if t.errors > 0 {
		add(fmt.Sprintf("%d fatal error(s)", t.errors), "%d fatal error(s): %s [%s]", t.errors, t.firstError.Title, t.firstError.Playbook)
	}
	if t.unexpectedBreaks > 0 {
		add(fmt.Sprintf("%d graph break(s) to fix or consider", t.unexpectedBreaks),
			"%d graph break(s) to fix or consider, e.g. %s [%s]", t.unexpectedBreaks, t.firstBreak.Title, t.firstBreak.Playbook)
	}
	if t.unexpectedRecompiles > 0 {
		add(fmt.Sprintf("%d recompile(s) beyond automatic dynamic", t.unexpectedRecompiles),
			"%d recompile(s) beyond automatic dynamic, e.g. %s [%s]", t.unexpectedRecompiles, t.firstRecompile.Title, t.firstRecompile.Playbook)
	}
	if t.limits > 0 {
		add("recompile limit hit", "recompile limit hit: %s", t.firstLimit.Title)
	}
	if !ra.Agree {
		add("ranks disagree", "ranks disagree: %s", ra.Summary)
	}
	if t.parity > 0 {
		add("settings differ between ranks", "%d setting(s) differ between ranks", t.parity)
	}
	v.Steady = len(v.Reasons) == 0
	graphs := ""
	if v.UniqueGraphs >= 0 {
		graphs = fmt.Sprintf("; %d unique graph(s)", v.UniqueGraphs)
	}
	if v.Steady {
		extra := ""
		if t.expectedBreaks > 0 || t.recompiles > 0 {
			extra = fmt.Sprintf(" (%d graph break(s) by design, %d expected recompile(s))", t.expectedBreaks, t.recompiles)
		}
		v.Summary = "steady state: no unexpected graph break or recompile" + agreeText(ra) + extra + graphs
		if t.skips > 0 {
			v.Summary += fmt.Sprintf("; %d CUDA-graph skip(s)", t.skips)
		}
	} else {
		v.Summary = "not steady: " + strings.Join(short, ", ") + graphs
	}
	return v
}

func agreeText(ra RankAgreement) string {
	if len(ra.Groups) > 0 && len(ra.Groups[0].Ranks) > 1 && ra.Agree {
		return ", ranks agree"
	}
	return ""
}

// uniqueGraphs reads dynamo's counters["stats"]["unique_graphs"] from the probe (the largest over processes:
// ranks compile the same graphs); -1 when no process recorded it.
func uniqueGraphs(probes []ProcessInfo) int {
	n := -1
	for _, p := range probes {
		if v, ok := p.Counters["stats"]["unique_graphs"]; ok && int(v) > n {
			n = int(v)
		}
	}
	return n
}

// stateOf is what the checklist needs. A log cannot show whether an eager baseline was taken nor whether this
// is a rerun: HasBaseline is assumed (the step is not reported done) and SteadyRerun is false.
func stateOf(rep *Report, fs []Finding, ra RankAgreement) playbooks.State {
	t := countFindings(fs)
	return playbooks.State{
		Ranks:                len(rep.Ranks),
		HasBaseline:          true,
		Breaks:               t.breaks,
		UnexpectedBreaks:     t.unexpectedBreaks + t.fullgraphErrors,
		Recompiles:           t.recompiles,
		UnexpectedRecompiles: t.unexpectedRecompiles + t.limits,
		CudagraphSkips:       t.skips,
		RanksAgree:           ra.Agree,
	}
}

// nextStep proposes the next checklist step; Done leaves out the baseline step (a log cannot show it).
func nextStep(st playbooks.State) (playbooks.Step, []string) {
	step, done := playbooks.NextStep(st)
	out := []string{}
	for _, d := range done {
		if d != "baseline" {
			out = append(out, d)
		}
	}
	return step, out
}
