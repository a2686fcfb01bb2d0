// Package runner launches a user's PyTorch micro-repro (python, torchrun with
// several ranks, or srun) with a TORCH_LOGS preset, stores every byte it prints
// in a numbered run directory, and supervises it: tail events for the UI, a
// no-progress watchdog, stack dumps on request, cancel/timeout with SIGINT ->
// SIGTERM -> SIGKILL escalation over every process the run started, and one
// automatic relaunch when the installed torch rejects a TORCH_LOGS name.
// It also owns the presets, the per-version table of TORCH_LOGS names, the run
// store (meta.json, repro bundles) and the eager-baseline comparison.
// It needs neither a GPU nor torch; it is Unix-only (process groups, /proc).
package runner
