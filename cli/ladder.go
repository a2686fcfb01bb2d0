package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/ladder"
	"github.com/torchtriage/torchtriage/triage/runs"
)

func newLadderCmd() *cobra.Command {
	var (
		launch launchFlags
		o      ladder.Options
		format = "text"
	)
	cmd := &cobra.Command{
		Use:   "ladder [flags] -- CMD ARGS...",
		Short: "Run the repro once per backend (eager, aot_eager, aot_eager_decomp_partition, inductor) and name the first that fails",
		Long: "Runs CMD once per torch.compile backend, each a stored run of one experiment (the probe forces the backend of every " +
			"torch.compile call: no code change), stops at the first tier that fails and says what failed there: ok, compile_error, " +
			"runtime_error, wrong (PyTorch's accuracy check, --check-accuracy), hang, failed (a non-zero exit with no error torch " +
			"printed), not_compiled, not_run. --minify runs PyTorch's minifier on the failing tier and keeps its repro.py in the run " +
			"(bundle packs it); --bisect runs torch._inductor.compiler_bisector with a cache directory of its own. docs/ladder.md.\n\n" +
			"Exit status: 0 every tier passed; 1 a tier failed; 2 usage error.",
		Example: "  torchtriage ladder -- python repro.py\n  torchtriage ladder --check-accuracy --minify --bisect --format json -- python repro.py",
		RunE: func(cmd *cobra.Command, args []string) error {
			_, repro := splitDash(cmd, args)
			if len(repro) == 0 {
				return usageErr(cmd, "no command: torchtriage ladder -- CMD ARGS...")
			}
			if launch.noProbe {
				return usageErr(cmd, "--no-probe: the ladder forces each backend through the probe")
			}
			spec, err := launch.spec(cmd, repro)
			if err != nil {
				return err
			}
			if o.Store, err = runs.OpenStore(launch.store); err != nil {
				return failErr(cmd, exitUsage, "%v", err)
			}
			o.Spec, o.Playbooks = spec, loadPlaybooks(cmd, playbooks.DefaultUserDir())
			o.Progress = func(s string) { fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", cmd.CommandPath(), s) }
			l, err := ladder.Run(o)
			if err != nil {
				return failErr(cmd, exitFail, "%v", err)
			}
			write := ladder.WriteText
			if format == "json" {
				write = ladder.WriteJSON
			}
			if err := write(cmd.OutOrStdout(), l); err != nil || l.FirstBad == nil {
				return err
			}
			return exitCode(exitFail)
		},
	}
	launch.register(cmd)
	fs := cmd.Flags()
	fs.BoolVar(&o.CheckAccuracy, "check-accuracy", false, "run every tier under PyTorch's accuracy check (TORCHDYNAMO_REPRO_AFTER=aot, TORCHDYNAMO_REPRO_LEVEL=4; it judges inductor's graphs): a wrong result fails the tier")
	fs.BoolVar(&o.Minify, "minify", false, "run PyTorch's minifier on the first failing tier and keep its repro.py in that run (minified/)")
	fs.BoolVar(&o.Bisect, "bisect", false, "run torch._inductor.compiler_bisector on the command after a tier failed")
	durationFlag(fs, &o.ToolTimeout, "tool-timeout", "stop the minifier or the bisector after this long (default 20m)")
	formatFlag(cmd, &format, "text", "json")
	return cmd
}
