package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/ladder"
)

func newLadderCmd() *cobra.Command {
	launch, o := launchFlags{}, ladder.Options{Format: "text"}
	cmd := &cobra.Command{
		Use:     "ladder [flags] -- CMD ARGS...",
		Short:   "Run the repro once per backend (eager, aot_eager, aot_eager_decomp_partition, inductor) and name the first that fails",
		Long:    "Runs CMD once per torch.compile backend, each a stored run of one experiment (the probe forces the backend of every torch.compile call: no code change), stops at the first tier that fails and says what failed there (docs/ladder.md). --minify runs PyTorch's minifier on the failing tier and keeps its repro.py in the run (bundle packs it); --bisect runs torch._inductor.compiler_bisector with a cache directory of its own.\n\nExit status: 0 every tier passed; 1 a tier failed; 2 usage error.",
		Example: "  torchtriage ladder -- python repro.py\n  torchtriage ladder --check-accuracy --minify --bisect --format json -- python repro.py",
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			if _, repro := splitDash(cmd, args); len(repro) == 0 || launch.noProbe {
				return usageErr(cmd, "give -- CMD ARGS... and no --no-probe: the ladder forces each backend through the probe")
			} else if o.Spec, err = launch.spec(cmd, repro); err != nil {
				return err
			}
			o.StoreDir, o.Playbooks, o.Progress = launch.store, loadPlaybooks(cmd, playbooks.DefaultUserDir()), func(s string) { fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", cmd.CommandPath(), s) }
			if l, err := ladder.Run(o); err != nil {
				return failErr(cmd, exitFail, "%v", err)
			} else if err := ladder.Write(cmd.OutOrStdout(), l, o.Format); err != nil || l.FirstBad == nil {
				return err
			}
			return exitCode(exitFail)
		},
	}
	launch.register(cmd)
	cmd.Flags().BoolVar(&o.CheckAccuracy, "check-accuracy", false, "run every tier under PyTorch's accuracy check (TORCHDYNAMO_REPRO_AFTER=aot, TORCHDYNAMO_REPRO_LEVEL=4, caches off; it judges inductor's graphs): a wrong result fails the tier")
	cmd.Flags().StringVar(&o.Mismatch, "mismatch", "", "a regular expression for the line the program prints when its own comparison with eager fails (e.g. MISMATCH): such a tier is wrong")
	cmd.Flags().BoolVar(&o.Minify, "minify", false, "run PyTorch's minifier on the first failing tier and keep its repro.py in that run (minified/)")
	cmd.Flags().BoolVar(&o.Bisect, "bisect", false, "run torch._inductor.compiler_bisector on the command after a tier failed")
	durationFlag(cmd.Flags(), &o.ToolTimeout, "tool-timeout", "stop the minifier or the bisector after this long (default 20m)")
	formatFlag(cmd, &o.Format, "text", "json")
	return cmd
}
