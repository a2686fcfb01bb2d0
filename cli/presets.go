package cli

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/text"
)

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
			views := runs.PresetViews()
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
				if env := v.EnvText(); env != "-" { // in the prose, wrapped at its spaces: never cut inside a name
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
