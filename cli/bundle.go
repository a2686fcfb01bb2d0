package cli

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
)

func newBundleCmd() *cobra.Command {
	var out, store string
	var noScrub bool
	cmd := &cobra.Command{
		Use:   "bundle [flags] RUN",
		Short: "Pack a run into a tar.gz repro pack for an upstream bug report",
		Long: "Packs a stored run (a run number of the store, or a run directory) into a tar.gz: its logs, " +
			"meta, probe files, the code that ran (the run's code/: its scripts and the modules it imported, as they " +
			"were; for a run made before runs kept their code, today's copy of the script, and the README says so) " +
			"and a README for an upstream issue: torch, CUDA, GPU and driver versions from the " +
			"probe, the exact rerun command with its TORCH_LOGS, the findings as Markdown, and what was scrubbed. " +
			"Secrets in argv and env are left out, and every file is scrubbed as it is packed: the values of " +
			"secret-named environment variables (TOKEN, KEY, SECRET, PASSWORD, CREDENTIAL; PW as a last word) " +
			"wherever they appear, Hugging Face (hf_…), AWS (AKIA…, aws_secret_access_key) and GitHub (ghp_…, " +
			"github_pat_…) tokens, Bearer tokens, user:password@ in URLs, the values of --token/--password/--secret/" +
			"--api-key flags and of secret-named keys (?user=bob&password=…, password=…, MYSVC_PW=…, api_key=…); " +
			"the README counts them (docs/bundle.md lists every form). --no-scrub packs the files as the run wrote them.\n\n" +
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
			opt := bundleOptions(cmd, dir)
			opt.NoScrub = noScrub
			if err := runs.Bundle(dir, target, opt); err != nil {
				return failErr(cmd, exitFail, "%v", err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), "wrote", target)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "output file (default ./<run>.tar.gz)")
	storeFlag(cmd, &store)
	cmd.Flags().BoolVar(&noScrub, "no-scrub", false, "pack the logs as the run wrote them (argv and env stay redacted)")
	return cmd
}

// bundleOptions reads what the pack's README says beyond the run directory: the probe's versions per process and
// the findings as Markdown (left out, with a warning, when the run's logs cannot be read).
func bundleOptions(cmd *cobra.Command, dir string) runs.BundleOptions {
	var opt runs.BundleOptions
	probes := readProbes(cmd, []string{dir})
	for _, p := range probes {
		opt.Versions = append(opt.Versions, runs.ProcessVersions{Rank: p.RankOf(), Torch: p.Torch, Python: p.Python,
			CUDA: p.CUDA, GPU: p.GPU, Capability: p.Capability, Driver: p.Driver})
	}
	l, err := report.Load([]string{dir}, report.LoadOptions{})
	if err != nil {
		warn(cmd, "the pack has no findings: %v", err)
		return opt
	}
	// the report of the run, as `report DIR` makes it: its meta.json says how it ended and which TORCH_LOGS it
	// set; the probe's torch version beats what the log's form suggests (AnalyzeRun)
	an := triage.AnalyzeRun(l.Report, loadPlaybooks(cmd, playbooks.DefaultUserDir()), probes, runFacts([]string{dir}))
	var md bytes.Buffer
	render.WriteMarkdown(&md, an)
	opt.Findings = md.String()
	return opt
}
