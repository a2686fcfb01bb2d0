// Package tui is the bubbletea program: breaks and recompiles side by side,
// the recommended playbook, ranks, the timeline, the log and runs views and
// the guided diagnose-compile-regression flow.
//
// Entry points (main.go routes to them): CmdRun (`torchtriage run -- CMD`),
// CmdDemo (`torchtriage demo`, the built-in recording as the repro) and
// CmdOpen (`torchtriage open PATH…`, no relaunch). Runner events go through
// feed.go, which parses and analyses off the UI goroutine and hands the model
// at most one batch per run every 100 ms; the model (model.go, update.go,
// input.go) keys everything off one key table (keys.go); view*.go draw
// exactly the terminal's size, side by side from 100 columns, stacked below.
// The runs view is the session story of the run store (story.go builds it
// with triage.BuildStory in a command; view_story.go, sparkline.go draw it);
// N there notes a run (note.go, triage.SetRunNote).
package tui
