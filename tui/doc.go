// Package tui is the bubbletea program: breaks and recompiles side by side,
// the recommended playbook, ranks, the timeline, the log and runs views and
// the guided diagnose-compile-regression flow.
package tui
