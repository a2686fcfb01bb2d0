//go:build race

package tui

// raceEnabled: the race detector slows everything down; timing budgets are not checked under it.
const raceEnabled = true
