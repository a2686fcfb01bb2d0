// Package triage is the analysis: records (from logparse) become the counts contract (Aggregator, Report),
// findings with their playbooks, rank agreement, the verdict and the next checklist step, the CI gate and its
// baseline, and the diff between two runs, with their text forms (fitted to a width, ASCII when asked:
// TextOptions), Markdown and JSON. Load is the one loader of log files, directories and stdin. It does no
// run-store I/O and imports no launcher, probe, session or UI: those live in its sub-packages (runner, probe,
// demo, session, story) and in cli and tui.
package triage
