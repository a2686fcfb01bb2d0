package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/story"
)

func newLogCmd() *cobra.Command {
	var format, store, script string
	var width int
	cmd := &cobra.Command{
		Use:   "log [flags]",
		Short: "The bringup log of this session: every run, what changed, what it fixed or broke",
		Long: "The bringup log of the session: every run stored in --store (default .torchtriage/runs), oldest " +
			"first, with its time, preset and TORCH_LOGS, command, exit, duration, --metric value, note and counts " +
			"(distinct graph breaks, recompiles, limit hits, CUDA-graph skips, compile errors, ranks); what changed " +
			"since the previous run (command, env, preset, torch, and the code that ran: \"repro.py changed (+2 −1)\", " +
			"where both runs kept theirs); and what it fixed or broke against the previous " +
			"comparable run (the same command, else the same script with other arguments): graph breaks, recompile " +
			"classes, limit hits, skips and errors gone or new with their playbooks, rank agreement regained or " +
			"lost. Kinds a run's TORCH_LOGS did not log are not compared. markdown is ready to paste into a " +
			"bringup doc or an upstream issue. --script narrows the log to the runs of one script.\n\nExit status: 0, 2 usage error or no run store.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := story.BuildFor(store, loadPlaybooks(cmd, playbooks.DefaultUserDir()), script)
			if err != nil {
				return usageErr(cmd, "%v", err)
			}
			for _, w := range s.Warnings {
				warn(cmd, "%s", w)
			}
			switch format {
			case "json":
				return story.WriteJSON(cmd.OutOrStdout(), s)
			case "markdown", "md":
				story.WriteMarkdown(cmd.OutOrStdout(), s)
			default:
				story.WriteText(cmd.OutOrStdout(), s, textOptions(cmd, width))
			}
			return nil
		},
	}
	formatFlag(cmd, &format, "text", "markdown", "json", "md")
	widthFlag(cmd, &width)
	cmd.Flags().StringVar(&store, "store", "", "run store (default .torchtriage/runs)")
	_ = cmd.MarkFlagDirname("store")
	cmd.Flags().StringVar(&script, "script", "", "only the runs of this script (repro.py, a path, or a -m module's name)")
	_ = cmd.MarkFlagFilename("script", "py")
	return cmd
}

func newNoteCmd() *cobra.Command {
	var store string
	var clear bool
	cmd := &cobra.Command{
		Use:   "note [flags] RUN TEXT...",
		Short: `Attach a one-line note to a run: torchtriage note 3 "switched to funcol"`,
		Long: "Attaches a one-line note to a run (\"switched to funcol\"); torchtriage log shows it. RUN is a run " +
			"number of the store (default .torchtriage/runs) or a run directory; the words of TEXT are joined by " +
			"spaces. A note replaces the previous one; --clear removes it. A run still going cannot take a note " +
			"yet.\n\nExit status: 0, 2 usage error or unknown run.",
		Example:           "  torchtriage note 3 switched to funcol\n  torchtriage note --clear 3",
		ValidArgsFunction: completeRuns,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return usageErr(cmd, "no run given (a run number or a run directory)")
			case clear && len(args) > 1:
				return usageErr(cmd, "--clear takes no text")
			case !clear && len(args) == 1:
				return usageErr(cmd, "no note text given (use --clear to remove a note)")
			}
			dir, err := findRun(cmd, args[0], store)
			if err != nil {
				return err
			}
			note, err := story.SetNote(dir, strings.Join(args[1:], " "))
			if err != nil {
				return usageErr(cmd, "%v", err)
			}
			if note == "" {
				fmt.Fprintf(cmd.OutOrStdout(), "%s: note removed\n", dir)
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "%s: note %q\n", dir, note)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "run store (default .torchtriage/runs)")
	cmd.Flags().BoolVar(&clear, "clear", false, "remove the run's note")
	_ = cmd.MarkFlagDirname("store")
	return cmd
}
