// Package tui is the bubbletea program, UI only: breaks and recompiles side by side, the recommended playbook,
// ranks, the timeline, the log and runs views and the guided diagnose-compile-regression flow. Runs, batches and
// opened logs come from triage/session (engine.go turns them into snapshots); the command line (cli) builds the
// Options and calls Run. One key table (keytable.go, with its scopes in keys.go) drives dispatch (input.go), the
// footer and the `?` help. Update computes the geometry after every message (layout.go: pages, offsets, the
// text of the screen on show, cached playbook renders); view*.go only read the model and draw exactly the
// terminal's size, side by side from 100 columns, stacked below.
package tui
