package cli

import (
	"bufio"
	"fmt"
	"os"
	"slices"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/runs"
)

func newReportCmd() *cobra.Command {
	var format, store string
	var width int
	cmd := &cobra.Command{
		Use:   "report [flags] PATH... (or - for stdin)",
		Short: "Print graph breaks, recompiles, limit hits, skips and errors of logs, with what to do",
		Long: "Reads torch.compile logs (TORCH_LOGS output of torch 2.0-2.14, torchrun/srun rank prefixes, " +
			"tracebacks) and TORCH_TRACE files or directories, and prints graph breaks, recompiles, recompile-limit " +
			"hits, CUDA-graph skips and compile errors for all inputs together, then the findings with their " +
			"playbooks, whether the ranks agree, the verdict and the next checklist step. A run directory's probe " +
			"files add settings that differ between ranks. --format markdown prints a summary to paste into an " +
			"issue.\n\nExit status: 0 success, 2 usage error or unreadable input.",
		Example: "  torchtriage report train.log\n  torchtriage report --format json .torchtriage/runs/0003-breaks\n" +
			"  torchtriage report 3    (run 3 of the store, as torchtriage log numbers it)\n" +
			"  pbpaste | torchtriage report -",
		Args: needArgs(1, "input (a file, a directory, or - for stdin)"),
		RunE: func(cmd *cobra.Command, paths []string) error {
			metas := runMetas{runs.Metas{}} // a run directory's meta.json, read once for every step below
			paths, err := metas.runPaths(cmd, paths, store)
			if err != nil {
				return err
			}
			promptPaste(cmd, paths)
			oneShot()
			rep, paths, err := metas.load(cmd, paths, cmd.InOrStdin())
			if err != nil {
				return err
			}
			an := triage.AnalyzeRun(rep, loadPlaybooks(cmd, playbooks.DefaultUserDir()), readProbes(cmd, paths), metas.runFacts(paths))
			out := bufio.NewWriterSize(cmd.OutOrStdout(), 64<<10) // thousands of lines: not one write each
			err = render.WriteReport(out, an, format, textOptions(cmd, width))
			out.Flush()
			if err != nil {
				return failErr(cmd, exitUsage, "%v", err)
			}
			return nil
		},
	}
	formatFlag(cmd, &format, "text", "json", "markdown")
	widthFlag(cmd, &width)
	storeFlag(cmd, &store)
	cmd.Flags().Bool("verbose", false, "no effect: which entries of the directories were skipped is always said")
	_ = cmd.Flags().MarkDeprecated("verbose", "which entries of the directories were skipped is always said")
	return cmd
}

// promptPaste tells a person who ran `report -` at a terminal, with nothing piped in, that it waits for a paste.
func promptPaste(cmd *cobra.Command, paths []string) {
	if f, ok := cmd.InOrStdin().(*os.File); ok && slices.Contains(paths, "-") && term.IsTerminal(f.Fd()) {
		fmt.Fprintln(cmd.ErrOrStderr(), "reading stdin… paste the log, then ctrl-d")
	}
}
