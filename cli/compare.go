package cli

import (
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/runs"
)

func newCompareCmd() *cobra.Command {
	var format, store string
	cmd := &cobra.Command{
		Use:   "compare [flags] A B",
		Short: "Why is B slower than A: versions, settings, compile time per phase and frame, caches, findings",
		Long: "Compares two runs (saved run directories or run numbers, log files, TORCH_TRACE directories): the " +
			"torch versions and env/config settings that differ (from the probe files of run directories), compile " +
			"time per phase, per frame and per rank with delta and ratio, the compile caches' hits and misses, " +
			"findings new and gone, and the --metric value when both runs have one; ordered by contribution, with " +
			"a one-line verdict. Changes under 1 s or under 15 % are noise, not differences.\n\n" +
			"Exit status: 0 (differences are not an error), 2 usage error or unreadable input.",
		Example:           "  torchtriage compare 3 4\n  torchtriage compare --format json before/ after/",
		ValidArgsFunction: completeRuns,
		RunE: func(cmd *cobra.Command, paths []string) error {
			sides, err := loadPair(cmd, paths, store)
			if err != nil {
				return err
			}
			res := compare.Compare(sides[0], sides[1])
			res.SetCommands(differentCommands(cmd, paths, store))
			res.Findings.Code = codeChanges(cmd, paths, store)
			if format == "json" {
				return compare.WriteCompareJSON(cmd.OutOrStdout(), res)
			}
			compare.WriteCompareText(cmd.OutOrStdout(), paths[0], paths[1], res)
			return nil
		},
	}
	formatFlag(cmd, &format, "text", "json")
	storeFlag(cmd, &store)
	return cmd
}

// loadPair resolves A and B (run numbers, run dirs, files, directories, one "-"), loads and analyses each with
// the probe files and the metric of a run directory: the inputs of diff and compare.
func loadPair(cmd *cobra.Command, paths []string, store string) ([2]compare.Side, error) {
	var sides [2]compare.Side
	if len(paths) != 2 {
		return sides, usageErr(cmd, "want two inputs A and B, got %d", len(paths))
	}
	if paths[0] == "-" && paths[1] == "-" {
		return sides, usageErr(cmd, "only one of A and B can be - (stdin)")
	}
	set := loadPlaybooks(cmd, playbooks.DefaultUserDir())
	for i, p := range paths {
		rp, err := runPaths(cmd, []string{p}, store)
		if err != nil {
			return sides, err
		}
		p := rp[0]
		rep, _, err := load(cmd, []string{p}, cmd.InOrStdin())
		if err != nil {
			return sides, err
		}
		probes := readProbes(cmd, []string{p})
		sides[i] = compare.Side{Name: paths[i], Analysis: triage.AnalyzeRun(rep, set, probes, runFacts([]string{p})), Probes: probes}
		if _, err := os.Stat(filepath.Join(p, "meta.json")); err == nil {
			if m, err := runs.LoadRun(p); err == nil {
				sides[i].Metric = m.Metric
			}
		}
	}
	return sides, nil
}
