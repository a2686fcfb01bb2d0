package cli

import (
	"context"
	"io"

	"charm.land/fang/v2"
	"github.com/spf13/cobra"
)

// Version is the tool's version, set at build time (main passes its -ldflags "-X main.version=…").
var Version = "0.1.0-dev"

// OneShot, when set (main: the collector's tuning), is called by a command that reads its inputs once and exits
// (report, diff) before it reads them; the TUI and the commands that supervise a run do not call it.
var OneShot func()

func oneShot() {
	if OneShot != nil {
		OneShot()
	}
}

// Run executes one command line (args without the program name) and returns the exit status: 0 success,
// 1 a failed rule or nothing found, 2 a usage error or unreadable input, 3 and 4 as check documents.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	unknownShell(root) // after SetOut: cobra's completion commands keep the writer they are made with
	err := fang.Execute(context.Background(), root,
		fang.WithVersion(Version),
		fang.WithoutManpage(),
		fang.WithErrorHandler(func(w io.Writer, _ fang.Styles, err error) { printError(w, err) }),
	)
	return codeOf(err)
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "torchtriage",
		Short: "Why did torch.compile get slower or break?",
		Long: "torchtriage reads what PyTorch prints (graph breaks, recompiles, recompile-limit hits, CUDA-graph " +
			"skips, compile errors), per rank, and recommends what to do about each from built-in playbooks. It " +
			"launches your repro with TORCH_LOGS presets (run), reads saved logs (report, open), gates CI (check), " +
			"compares runs (diff) and keeps the bringup log (log).",
		Example: "  torchtriage demo\n  torchtriage run --preset breaks -- python repro.py\n" +
			"  torchtriage report --format json train.log\n  torchtriage check --max-graph-breaks 0 -- python repro.py",
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetVersionTemplate("torchtriage {{.Version}}\n")
	root.SetFlagErrorFunc(flagError)
	root.AddGroup(&cobra.Group{ID: "session", Title: "Live session"}, &cobra.Group{ID: "logs", Title: "Logs and runs"},
		&cobra.Group{ID: "kb", Title: "Knowledge base"})
	for _, c := range []*cobra.Command{newRunCmd(), newDemoCmd(), newOpenCmd()} {
		c.GroupID = "session"
		root.AddCommand(c)
	}
	for _, c := range []*cobra.Command{newReportCmd(), newCheckCmd(), newDiffCmd(), newCompareCmd(), newLogCmd(), newNoteCmd(), newBundleCmd(), newLadderCmd()} {
		c.GroupID = "logs"
		root.AddCommand(c)
	}
	for _, c := range []*cobra.Command{newPlaybooksCmd(), newExplainCmd(), newPresetsCmd()} {
		c.GroupID = "kb"
		root.AddCommand(c)
	}
	root.AddCommand(newDoctorCmd(), newVersionCmd(), newDemoReproCmd())
	return root
}

// unknownShell: `completion SHELL` of a shell cobra has no script for is a usage error (2), not its help (0).
func unknownShell(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c.Name() == "completion" {
		c.Args, c.RunE = cobra.ArbitraryArgs, func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErr(cmd, "no completion script for %q: give bash, zsh, fish or powershell", args[0])
			}
			return cmd.Help()
		}
	}
}

// positional errors: cobra's validators name no command; these do, in one line.

// needArgs wants at least n positional arguments, what names them.
func needArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return usageErr(cmd, "no %s given", what)
		}
		return nil
	}
}

// noArgs takes no positional argument.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErr(cmd, "unexpected argument %q", args[0])
	}
	return nil
}
