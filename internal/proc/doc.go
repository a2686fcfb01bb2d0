// Package proc is what the operating system says of a process: its /proc/<pid>/stat (state, parent, process group,
// start time), whether its pid exists and which boot this is. The run store (triage/runs: is a run's supervisor
// still alive?) and the supervisor (triage/runner: which processes are a run's?) both ask it. It imports nothing
// of the module.
package proc
