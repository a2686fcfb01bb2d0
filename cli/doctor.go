package cli

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/doctor"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// newDoctorCmd is `torchtriage doctor`: its flags into doctor.Options, one doctor.Run, exit 1 when a check is ✗.
func newDoctorCmd() *cobra.Command {
	var (
		format, python, store string
		timeout               time.Duration
	)
	cmd := &cobra.Command{
		Use:   "doctor [flags]",
		Short: "Check this box in one screen: python, torch, GPU, launchers, TORCH_LOGS names, caches, knobs, terminal",
		Long: "The first five minutes on a new box. Runs the python that `torchtriage run` would use once (a small " +
			"script; no GPU needed) and reports its torch (version, CUDA build, whether it sees a GPU), torchrun and " +
			"srun, which TORCH_LOGS names this torch accepts (and the preset names it would reject), the compile cache " +
			"directories, the regression-prone compile knobs that are set, the terminal, and where runs are stored. " +
			"Each line is ✓, ⚠ or ✗ with the fix. Exit status 0 when nothing is ✗, 1 otherwise.",
		Example: "  torchtriage doctor\n  torchtriage doctor --python .venv/bin/python --format json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			failed, err := doctor.Run(cmd.Context(), cmd.OutOrStdout(),
				doctor.Options{Python: python, Store: store, Timeout: timeout, Format: format, Version: Version})
			if err != nil {
				return err
			}
			if failed > 0 {
				return exitCode(exitFail)
			}
			return nil
		},
	}
	formatFlag(cmd, &format, "text", "json")
	cmd.Flags().StringVar(&python, "python", "", "the interpreter to examine (default: python3 on PATH, as run uses)")
	cmd.Flags().StringVar(&store, "store", "", "run store directory (default "+runs.DefaultStoreDir+")")
	durationFlag(cmd.Flags(), &timeout, "timeout", "give up on the python script after this long (default 2m)")
	_ = cmd.MarkFlagFilename("python")
	_ = cmd.MarkFlagDirname("store")
	return cmd
}
