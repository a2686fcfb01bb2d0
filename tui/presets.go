package tui

import (
	"strings"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// traceEntry is the preset bar's last entry: TORCH_TRACE on or off.
const traceEntry = "TORCH_TRACE"

// presetState is the preset bar: the preset chosen for the next launch and its TORCH_LOGS names toggled on/off.
type presetState struct {
	name    string
	logs    *runs.LogSet
	trace   bool
	cursor  int  // entry under the cursor when the bar has focus
	picking bool // the preset picker is open
	pick    int  // picker cursor
}

func newPresetState(name string, logs []string) presetState {
	p, ok := runs.PresetByName(name)
	if !ok {
		p, _ = runs.PresetByName(runs.DefaultPreset)
	}
	on := p.Logs
	if logs != nil {
		on = logs
	}
	return presetState{name: p.Name, logs: runs.NewLogSet(on), trace: p.Trace}
}

// choose switches to a preset: its names and trace setting replace the toggles.
func (ps *presetState) choose(name string) bool {
	p, ok := runs.PresetByName(name)
	if !ok {
		return false
	}
	ps.name, ps.logs, ps.trace = p.Name, runs.NewLogSet(p.Logs), p.Trace
	return true
}

// entries are the names on the bar in order, TORCH_TRACE last.
func (ps presetState) entries() []runs.LogEntry {
	out := ps.logs.Entries()
	return append(out, runs.LogEntry{Name: traceEntry, On: ps.trace})
}

// toggle flips the entry under the cursor; names the installed torch does not know stay off.
func (ps *presetState) toggle(torch string) (string, bool) {
	es := ps.entries()
	if ps.cursor < 0 || ps.cursor >= len(es) {
		return "", false
	}
	e := es[ps.cursor]
	if e.Name == traceEntry {
		ps.trace = !ps.trace
		return e.Name, true
	}
	if !e.On && !known(e.Name, torch) {
		return e.Name, false
	}
	ps.logs.Toggle(e.Name)
	return e.Name, true
}

// known reports whether the installed torch knows a TORCH_LOGS name (unknown version: assume yes).
func known(name, torch string) bool {
	if torch == "" {
		return true
	}
	return runs.KnownLogName(name, torch)
}

// torchLogs is what the bar's choice puts in TORCH_LOGS.
func (ps presetState) torchLogs(torch string) string {
	v, _ := runs.ComposeTorchLogs(ps.logs.Enabled(), torch)
	return v
}

// signature identifies the bar's choice; a run remembers the one it was launched with, and the bar shows
// "changed" while they differ.
func (ps presetState) signature() string {
	t := "-"
	if ps.trace {
		t = "+"
	}
	return ps.name + "|" + strings.Join(ps.logs.Enabled(), ",") + "|" + t
}
