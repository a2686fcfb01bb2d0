// Package steady is the steady state of a run: what compiled once the program was past its warm-up, by step.
// The probe stamps every compile a process starts with its step clocks (probe.StepLog: optimizer.step() calls, a
// step marker on the output, seconds); Of picks the clock, keeps the compiles at or past the warm-up's last step
// (report.RunFacts holds the steps files and the warm-up the run was launched with) and words them, grouped by
// cause (kind, frame, guard). The finding (triage/findings), the gate's --no-compile-after-warmup (triage/gate),
// the report's after_warmup (triage/render) and the TUI's step lanes read it from the analysis.
package steady
