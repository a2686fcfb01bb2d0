package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/demo"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// Shell completion (torchtriage completion bash|zsh|fish): these give the values that depend on the tool's data;
// cobra completes flags and subcommands itself.

const noFiles = cobra.ShellCompDirectiveNoFileComp

// completeRuns offers the run numbers of the store (--store, else the default), newest first, each with its
// preset, exit and command; files are completed too (a run can be named by its directory or a log file).
func completeRuns(cmd *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
	dir, _ := cmd.Flags().GetString("store")
	if dir == "" {
		dir = runs.DefaultStoreDir
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, cobra.ShellCompDirectiveDefault // never create a store while completing
	}
	store, err := runs.OpenStore(dir)
	if err != nil {
		return nil, cobra.ShellCompDirectiveDefault
	}
	metas, err := store.List()
	if err != nil {
		return nil, cobra.ShellCompDirectiveDefault
	}
	out := make([]string, 0, len(metas))
	for _, m := range metas {
		cmdline := strings.Join(m.UserArgv, " ")
		out = append(out, fmt.Sprintf("%d\t%s · %s · %s", m.ID, m.Preset, m.State, cmdline))
	}
	return out, cobra.ShellCompDirectiveDefault | cobra.ShellCompDirectiveKeepOrder
}

// completePresets offers the preset names with their purpose.
func completePresets(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for _, p := range runs.Presets() {
		out = append(out, p.Name+"\t"+p.Purpose)
	}
	return out, noFiles
}

// latestTorch is the newest torch whose TORCH_LOGS names torchtriage knows.
const latestTorch = "2.14"

// completeLogNames completes a comma-separated TORCH_LOGS list (--logs): the names the newest torch knows, after
// what was typed before the last comma.
func completeLogNames(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	head := ""
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		head = toComplete[:i+1]
	}
	names, _ := runs.LogNamesFor(latestTorch)
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, head+n)
	}
	return out, noFiles | cobra.ShellCompDirectiveNoSpace
}

// completePlaybookIDs offers playbook ids (with titles), the graph-break ids they list, and every graph-break id
// of the registry (with its gb_type).
func completePlaybookIDs(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, noFiles
	}
	dir, _ := cmd.Flags().GetString("dir")
	set, _ := playbooks.Load(dir)
	var out []string
	gb := map[string]bool{}
	for _, p := range set.All() {
		out = append(out, p.ID+"\t"+p.Title)
		for _, id := range p.Match.GBIDs {
			gb[id] = true
		}
	}
	for _, p := range playbooks.Registry() {
		id := p.Match.GBIDs[0]
		out = append(out, id+"\tgraph-break id: "+p.Title)
		delete(gb, id)
	}
	for id := range gb {
		out = append(out, id+"\tgraph-break id")
	}
	return out, noFiles
}

// completeScenarios offers the demo recordings.
func completeScenarios(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for _, s := range demo.Scenarios() {
		out = append(out, s.Name+"\t"+s.Description)
	}
	return out, noFiles
}
