// Package tui is the bubbletea program, UI only: breaks and recompiles side by side, the recommended playbook,
// ranks, the timeline, the log and runs views and the guided diagnose-compile-regression flow. Runs, batches and
// opened logs come from triage/session (engine.go turns them into snapshots); the command line (cli) builds the
// Options and calls Run. The model (model.go, update.go, input.go) keys everything off one key table (keys.go);
// view*.go draw exactly the terminal's size, side by side from 100 columns, stacked below.
package tui
