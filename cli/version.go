package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/triage/demo"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(cmd.OutOrStdout(), "torchtriage %s\n", Version)
			return nil
		},
	}
}

// newDemoReproCmd is the hidden built-in repro that `torchtriage demo` launches: it replays a recording.
func newDemoReproCmd() *cobra.Command {
	return &cobra.Command{
		Use:                "__demo-repro",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exitCode(demo.ReproMain(args, cmd.OutOrStdout(), cmd.ErrOrStderr(), nil))
		},
	}
}
