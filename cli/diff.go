package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/story"
)

func newDiffCmd() *cobra.Command {
	var format, store string
	var width int
	cmd := &cobra.Command{
		Use:   "diff [flags] A B",
		Short: "Compare two logs, directories or saved runs: what is new, gone or changed, per rank",
		Long: "Compares two runs: A and B are log files, directories (torchrun --log-dir trees, TORCH_TRACE dirs) " +
			"or saved run directories (.torchtriage/runs/NNNN-preset/, or just the run number NNNN). Lists the " +
			"graph breaks (by function, cause and the text of the break line, not its number), recompile reasons " +
			"(by function and guard class), recompile-limit hits, CUDA-graph skips and errors that are new in B, " +
			"gone from A, moved (the same item at other lines: a comment added above it) or changed in count, per " +
			"rank.\n\n" +
			"Exit status: 0 (differences are not an error), 2 usage error or unreadable input.",
		Example:           "  torchtriage diff 3 4\n  torchtriage diff before.log after.log",
		ValidArgsFunction: completeRuns,
		RunE: func(cmd *cobra.Command, paths []string) error {
			oneShot()
			sides, err := loadPair(cmd, paths, store)
			if err != nil {
				return err
			}
			an := [2]*triage.Analysis{sides[0].Analysis, sides[1].Analysis}
			res := compare.Diff(an[0], an[1])
			res.Commands = differentCommands(cmd, paths, store)
			res.Code = codeChanges(cmd, paths, store)
			if format == "json" {
				return compare.WriteDiffJSON(cmd.OutOrStdout(), an[0].Report.Inputs, an[1].Report.Inputs, res)
			}
			compare.WriteDiffText(cmd.OutOrStdout(), paths[0], paths[1], res, textOptions(cmd, width))
			return nil
		},
	}
	formatFlag(cmd, &format, "text", "json")
	widthFlag(cmd, &width)
	storeFlag(cmd, &store)
	return cmd
}

// codeChanges lists the files of the code that ran that differ from A to B, where both are stored runs that kept
// their code; nil otherwise.
func codeChanges(cmd *cobra.Command, paths []string, store string) []runs.CodeChange {
	var metas [2]runs.Meta
	for i, p := range paths {
		rp, err := runPaths(cmd, []string{p}, store)
		if err != nil || len(rp) != 1 {
			return nil
		}
		if _, err := os.Stat(filepath.Join(rp[0], "meta.json")); err != nil {
			return nil
		}
		m, err := runs.LoadRun(rp[0])
		if err != nil {
			return nil
		}
		metas[i] = m
	}
	return runs.CodeChanges(metas[0], metas[1])
}

// differentCommands says that A and B are stored runs of different commands ("A and B ran different commands
// (A: python3 a.py · B: python3 b.py)"), "" when they ran the same one or either is no stored run.
func differentCommands(cmd *cobra.Command, paths []string, store string) string {
	var metas [2]runs.Meta
	for i, p := range paths {
		rp, err := runPaths(cmd, []string{p}, store)
		if err != nil || len(rp) != 1 {
			return ""
		}
		if _, err := os.Stat(filepath.Join(rp[0], "meta.json")); err != nil {
			return ""
		}
		m, err := runs.LoadRun(rp[0])
		if err != nil {
			return ""
		}
		metas[i] = m
	}
	if story.SameCommand(metas[0], metas[1]) {
		return ""
	}
	return fmt.Sprintf("A and B ran different commands (A: %s · B: %s)", runs.ShellJoin(metas[0].UserArgv), runs.ShellJoin(metas[1].UserArgv))
}
