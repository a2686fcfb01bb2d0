package runs

import (
	"maps"
	"slices"
	"strings"
)

// PresetView is one preset as `torchtriage presets` shows it (and its JSON): the TORCH_LOGS value it sets and its
// environment, TORCH_TRACE's included.
type PresetView struct {
	Name      string            `json:"name"`
	TorchLogs string            `json:"torch_logs"`
	Env       map[string]string `json:"env"`
	Purpose   string            `json:"purpose"`
	Note      string            `json:"note,omitempty"`
}

// PresetViews are the presets as shown, in display order.
func PresetViews() []PresetView {
	var out []PresetView
	for _, p := range Presets() {
		logs, _ := ComposeTorchLogs(p.Logs, "")
		env := map[string]string{}
		for k, v := range p.Env {
			env[k] = v
		}
		if p.Trace {
			env["TORCH_TRACE"] = "<run dir>/trace"
		}
		out = append(out, PresetView{Name: p.Name, TorchLogs: logs, Env: env, Purpose: p.Purpose, Note: p.Note})
	}
	return out
}

// EnvText is the environment as NAME=value words sorted by name, "-" for none.
func (v PresetView) EnvText() string {
	if len(v.Env) == 0 {
		return "-"
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(v.Env)) {
		out = append(out, k+"="+v.Env[k])
	}
	return strings.Join(out, " ")
}
