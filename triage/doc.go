// Package triage is the analysis entry: AnalyzeRun takes a report (triage/report), the playbooks, the probe
// files and the run's facts, makes the findings (triage/findings), judges rank agreement (triage/ranks), and
// decides the verdict and the checklist's next step — decided here, worded apart (verdict_basis.go and the
// words files). Analysis is what every rendering (triage/render), the gate (triage/gate), diff and compare
// (triage/compare), the session and the TUI read. It does no I/O: loading is triage/report's, launching is
// triage/runner's, and the run store is triage/runs'.
package triage
