package cli

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/triage/text"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// presetView is one preset as `torchtriage presets` shows it.
type presetView struct {
	Name      string            `json:"name"`
	TorchLogs string            `json:"torch_logs"`
	Env       map[string]string `json:"env"`
	Purpose   string            `json:"purpose"`
	Note      string            `json:"note,omitempty"`
}

func presetViews() []presetView {
	var out []presetView
	for _, p := range runs.Presets() {
		logs, _ := runs.ComposeTorchLogs(p.Logs, "")
		env := map[string]string{}
		for k, v := range p.Env {
			env[k] = v
		}
		if p.Trace {
			env["TORCH_TRACE"] = "<run dir>/trace"
		}
		out = append(out, presetView{Name: p.Name, TorchLogs: logs, Env: env, Purpose: p.Purpose, Note: p.Note})
	}
	return out
}

func newPresetsCmd() *cobra.Command {
	var format string
	var width int
	cmd := &cobra.Command{
		Use:   "presets [flags]",
		Short: "List the TORCH_LOGS presets",
		Long: "Lists the TORCH_LOGS presets: name, TORCH_LOGS, extra environment and what each is for. " +
			"torchtriage run and check -- CMD use one with --preset NAME (default " + runs.DefaultPreset + ").",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			views := presetViews()
			if format == "json" {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(views)
			}
			rows := make([][]string, 0, len(views))
			for _, v := range views {
				logs := v.TorchLogs
				if logs == "" {
					logs = "-"
				}
				purpose := v.Purpose
				if v.Note != "" {
					purpose += " " + v.Note
				}
				if env := envText(v.Env); env != "-" { // in the prose, wrapped at its spaces: never cut inside a name
					purpose += " Sets " + env + "."
				}
				rows = append(rows, []string{v.Name, logs, purpose})
			}
			text.NewWriter(cmd.OutOrStdout(), textOptions(cmd, width)).Table([]text.Column{{Header: "NAME"},
				{Header: "TORCH_LOGS", Wrap: true, Breaks: ","}, {Header: "PURPOSE", Wrap: true}}, rows)
			return nil
		},
	}
	formatFlag(cmd, &format, "text", "json")
	widthFlag(cmd, &width)
	return cmd
}

func envText(env map[string]string) string {
	if len(env) == 0 {
		return "-"
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, k+"="+env[k])
	}
	return strings.Join(out, " ")
}
