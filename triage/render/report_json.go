package render

import (
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/steady"
)

// ReportJSON is `torchtriage report --format json`: the counts contract plus findings, rank agreement, verdict
// and next step.
type ReportJSON struct {
	*report.Report
	Evidence report.ReportEvidence `json:"evidence"` // the report's, completed with the run's and the probe's
	// CountsUncounted says why no count stands but runtime_errors (no torch output, nothing compiled), whatever
	// the zeros of counts and per_rank; left out where they stand
	CountsUncounted *triage.CountsUncounted `json:"counts_uncounted,omitempty"`
	Findings        []findings.Finding      `json:"findings"`
	RankAgreement   ranks.RankAgreement     `json:"rank_agreement"`
	StoppedAt       []triage.StopPlace      `json:"stopped_at,omitempty"` // a run the tool stopped: where each rank was
	// Hang is whether the run hung and where each rank waited (report.HangOf); left out where nothing shows a wait
	Hang *report.Hang `json:"hang,omitempty"`
	// AfterWarmup is what compiled past the warm-up, by step (steady.Of); left out for a run whose probe
	// kept no steps (logs alone, a run without the probe)
	AfterWarmup *steady.AfterWarmup `json:"after_warmup,omitempty"`
	// Coverage is how much ran compiled, from the probes' counters (report.CoverageOf); left out without them
	Coverage *report.Coverage `json:"coverage,omitempty"`
	Verdict  triage.Verdict   `json:"verdict"`
	NextStep *StepJSON        `json:"next_step"`
}

// StepJSON is a checklist step in JSON, with the steps already done.
type StepJSON struct {
	N         int      `json:"n"`
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Goal      string   `json:"goal"`
	Preset    string   `json:"preset"`
	TorchLogs string   `json:"torch_logs"`
	When      string   `json:"when"`
	DoneWhen  string   `json:"done_when"`
	StopWhen  string   `json:"stop_when"`
	Done      []string `json:"done"`
	Why       string   `json:"why,omitempty"` // a step before the six (crash, evidence): what makes it come first
}

// JSONOf returns the report with its analysis for encoding.
func JSONOf(a *triage.Analysis) ReportJSON {
	out := ReportJSON{Report: a.Report, Evidence: a.Evidence, CountsUncounted: a.CountsUncounted(), Findings: a.Findings,
		RankAgreement: a.RankAgreement, StoppedAt: a.StoppedAt(), Hang: a.Hang, AfterWarmup: a.AfterWarmup,
		Coverage: a.Coverage, Verdict: a.Verdict}
	if out.Findings == nil {
		out.Findings = []findings.Finding{}
	}
	if out.Report != nil && out.Report.PerRankUnknown == nil { // a list, never null: every rank is in per_rank
		rep := *out.Report
		rep.PerRankUnknown = []report.RankWithoutRecords{}
		out.Report = &rep
	}
	if a.NextStep.ID != "" {
		out.NextStep = stepJSON(a.NextStep, a.Done)
		out.NextStep.Why = a.State().Why(a.NextStep) // a step before the six: what makes it come first
	}
	return out
}

func stepJSON(s playbooks.Step, done []string) *StepJSON {
	if done == nil {
		done = []string{}
	}
	return &StepJSON{N: s.N, ID: s.ID, Title: s.Title, Goal: s.Goal, Preset: s.Preset, TorchLogs: s.TorchLogs,
		When: s.When, DoneWhen: s.DoneWhen, StopWhen: s.StopWhen, Done: done}
}
