// Package runner launches a user's PyTorch micro-repro (python, torchrun with
// several ranks, or srun) with a TORCH_LOGS preset, stores every byte it prints
// in a numbered run directory, and supervises it: tail events for the UI, a
// no-progress watchdog, stack dumps on request, cancel/timeout with SIGINT ->
// SIGTERM -> SIGKILL escalation over every process the run started (the tool
// is their child subreaper: one that leaves the session and clears its
// environment is still found), and one automatic relaunch when the installed
// torch rejects a TORCH_LOGS name. Signals and a lost terminal stop every run
// before the tool exits; a full disk is named (ENOSPC and the path).
// It also owns the presets, the per-version table of TORCH_LOGS names, the run
// store (meta.json, with the supervising process: a run whose supervisor is
// gone reads as interrupted; repro bundles) and the eager-baseline comparison.
// It needs neither a GPU nor torch; it is Unix-only (process groups, /proc).
package runner
