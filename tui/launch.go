package tui

import (
	"path/filepath"
	"slices"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// launchSpec is the spec of the next launch: the user's command with the preset bar's choice.
func (m *Model) launchSpec() runs.Spec {
	spec := m.opt.spec
	spec.Preset = m.pre.name
	p, _ := runs.PresetByName(m.pre.name)
	logs := m.pre.logs.Enabled()
	if !runs.SameLogs(logs, p.Logs) { // the bar lists names in its own order: the preset's set is the preset
		spec.Logs = logs
		if logs == nil {
			spec.Logs = []string{}
		}
	} else {
		spec.Logs = nil
	}
	if p.Trace && !m.pre.trace {
		spec.Preset = runs.DefaultPreset
		spec.Logs = slices.Clone(logs)
		if spec.Logs == nil {
			spec.Logs = []string{}
		}
	}
	if !p.Trace && m.pre.trace {
		prev := spec.Prepare
		spec.Prepare = func(dir string) ([]string, error) {
			env := []string{"TORCH_TRACE=" + filepath.Join(dir, "trace")}
			if prev == nil {
				return env, nil
			}
			more, err := prev(dir)
			return append(env, more...), err
		}
	}
	if v := m.torchVersion(); v != "" && spec.TorchVersion == "" {
		spec.TorchVersion = v
	}
	return spec
}
