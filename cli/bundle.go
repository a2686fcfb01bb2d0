package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/triage/runner"
)

func newBundleCmd() *cobra.Command {
	var out, store string
	cmd := &cobra.Command{
		Use:   "bundle [flags] RUN",
		Short: "Pack a run into a tar.gz repro pack for an upstream bug report",
		Long: "Packs a stored run (a run number of the store, or a run directory) into a tar.gz: its logs, " +
			"meta, probe files and a README with the rerun command. Secrets in argv and env are left out.\n\n" +
			"Exit status: 0, 1 the pack could not be written, 2 usage error or unknown run.",
		Example:           "  torchtriage bundle 3\n  torchtriage bundle -o repro.tar.gz .torchtriage/runs/0003-breaks",
		ValidArgsFunction: completeRuns,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr(cmd, "want one run (a run number or a run directory), got %d", len(args))
			}
			dir, err := findRun(cmd, args[0], store)
			if err != nil {
				return err
			}
			target := out
			if target == "" {
				abs, _ := filepath.Abs(dir)
				target = filepath.Base(abs) + ".tar.gz"
			}
			if err := runner.Bundle(dir, target); err != nil {
				return failErr(cmd, exitFail, "%v", err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), "wrote", target)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "output file (default ./<run>.tar.gz)")
	cmd.Flags().StringVar(&store, "store", "", "run store that run numbers refer to (default .torchtriage/runs)")
	_ = cmd.MarkFlagDirname("store")
	return cmd
}
