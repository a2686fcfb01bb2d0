// Package runner launches a user's PyTorch micro-repro (python, torchrun with
// several ranks, or srun) as a run of the store (triage/runs: its spec,
// presets, meta.json and run directories are defined there), stores every byte
// it prints in the run directory, and supervises it: tail events for the UI, a
// no-progress watchdog, stack dumps on request, cancel/timeout with SIGINT ->
// SIGTERM -> SIGKILL escalation over every process the run started (the tool
// is their child subreaper: one that leaves the session and clears its
// environment is still found), and one automatic relaunch when the installed
// torch rejects a TORCH_LOGS name. Signals and a lost terminal stop every run
// before the tool exits; a full disk is named (ENOSPC and the path).
// It needs neither a GPU nor torch; it is Unix-only (process groups, /proc).
package runner
