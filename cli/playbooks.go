package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/playbooks"
)

func newPlaybooksCmd() *cobra.Command {
	var format, dir string
	var width int
	cmd := &cobra.Command{
		Use:   "playbooks [flags] [QUERY...]",
		Short: "List or fuzzy-search the built-in and your own playbooks, and PyTorch's graph-break registry",
		Long: "Lists the playbooks (built-in plus user playbooks from --dir, default " + playbooks.DefaultUserDir() +
			"), best match first when a QUERY is given (fuzzy over ids, titles, GB ids, gb_types and bodies). A QUERY " +
			"also searches the " + strconv.Itoa(playbooks.RegistryLen()) + " registry playbooks, one per graph-break id of " +
			"PyTorch " + playbooks.RegistryTorch + "'s graph-break registry (gb-registry-NNNN: its gb_type, explanation " +
			"and hints, in PyTorch's words), listed after the others at an equal match.\n\n" +
			"Exit status: 0 found, 1 nothing matches, 2 usage error.",
		Example:           "  torchtriage playbooks\n  torchtriage playbooks item\n  torchtriage playbooks --format json GB0059\n  torchtriage playbooks rnn lstm",
		ValidArgsFunction: completePlaybookIDs,
		RunE: func(cmd *cobra.Command, args []string) error {
			set, err := playbooksFor(cmd, dir)
			if err != nil {
				return err
			}
			query := strings.Join(args, " ")
			found := set.Search(query)
			if len(found) == 0 {
				return failErr(cmd, exitFail, "nothing matches %q", query)
			}
			if format == "json" {
				return playbooks.WriteJSON(cmd.OutOrStdout(), found)
			}
			playbooks.WriteList(cmd.OutOrStdout(), textOptions(cmd, width), found, query == "")
			return nil
		},
	}
	formatFlag(cmd, &format, "text", "json")
	widthFlag(cmd, &width)
	userDirFlag(cmd, &dir)
	return cmd
}

func newExplainCmd() *cobra.Command {
	var width int
	var noColor bool
	var dir string
	cmd := &cobra.Command{
		Use:   "explain [flags] ID|GBnnnn",
		Short: "Print one playbook (by id or GB id, e.g. GB0059)",
		Long: "Shows one playbook: by id (gb-print) or by graph-break id (GB0059). A GB id shows the built-in playbook " +
			"that fixes it, else its registry playbook (PyTorch " + playbooks.RegistryTorch + "'s explanation and hints " +
			"for the id, in its words); every id of that registry has one. Colour is used on a terminal " +
			"that has it unless --no-color or NO_COLOR is set; TERM=dumb, vt100 or a non-UTF-8 locale (LC_ALL=C) " +
			"give plain ASCII.\n\nExit status: 0 shown, 2 unknown id or usage error.",
		Example:           "  torchtriage explain GB0059\n  torchtriage explain rc-shape --width 100",
		ValidArgsFunction: completePlaybookIDs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr(cmd, "want exactly one ID or GB id, got %d", len(args))
			}
			set, err := playbooksFor(cmd, dir)
			if err != nil {
				return err
			}
			key := args[0]
			p, found := set.Lookup(key)
			if gb := playbooks.NormalizeGBID(key); !found && playbooks.IsGBID(gb) {
				return failErr(cmd, exitUsage, "unknown graph-break id %s: not in PyTorch %s's graph-break registry, and "+
					"no playbook lists it (an id of a newer torch? see %s)", gb, playbooks.RegistryTorch, playbooks.GBSiteURL(gb))
			}
			if !found {
				return failErr(cmd, exitUsage, "no playbook or graph-break id %q; closest: %s", key,
					strings.Join(playbooks.ClosestIDs(set, key, 3), ", "))
			}
			out, o := cmd.OutOrStdout(), textOptions(cmd, width)
			if o.ASCII { // made ASCII before it is wrapped: "→" becomes two columns
				ascii := *p
				ascii.Title, ascii.Body = o.Glyphs(p.Title), o.Glyphs(p.Body)
				p = &ascii
			}
			fmt.Fprint(out, o.Glyphs(playbooks.Render(p, o.Cols(), colorOK(out, o, noColor))))
			if gb := playbooks.NormalizeGBID(key); playbooks.IsGBID(gb) {
				playbooks.WriteAlso(out, o, set, p, gb)
			}
			return nil
		},
	}
	widthFlag(cmd, &width)
	cmd.Flags().BoolVar(&noColor, "no-color", false, "plain text, no colour")
	userDirFlag(cmd, &dir)
	return cmd
}

func userDirFlag(cmd *cobra.Command, dir *string) {
	cmd.Flags().StringVar(dir, "dir", playbooks.DefaultUserDir(), "directory of user playbooks (*.md)")
	_ = cmd.MarkFlagDirname("dir")
}

// playbooksFor loads the built-in playbooks and those of dir; malformed user files are warnings.
func playbooksFor(cmd *cobra.Command, dir string) (*playbooks.Set, error) {
	set := loadPlaybooks(cmd, dir)
	if set == nil || len(set.All()) == 0 {
		return nil, failErr(cmd, exitFail, "no playbooks could be loaded")
	}
	return set, nil
}
