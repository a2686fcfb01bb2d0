package triage

import (
	"flag"
	"fmt"
	"io"
)

// cli is the frame every triage subcommand shares: flags that may come before or after the arguments, --help
// printing the command's usage, and one-line usage errors with exit status 2.
type cli struct {
	name   string
	fs     *flag.FlagSet
	stderr io.Writer
}

func newCLI(name, usage string, stderr io.Writer) *cli {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	return &cli{name: name, fs: fs, stderr: stderr}
}

// parse parses args; when ok is false the command returns code (0 after --help, 2 on a flag error).
func (c *cli) parse(args []string) (rest []string, code int, ok bool) {
	rest, err := parseInterspersed(c.fs, args)
	switch {
	case err == flag.ErrHelp:
		return nil, 0, false
	case err != nil:
		return nil, 2, false
	}
	return rest, 0, true
}

// fail prints "torchtriage NAME: message" and returns the usage-error status.
func (c *cli) fail(format string, a ...any) int {
	fmt.Fprintf(c.stderr, "torchtriage "+c.name+": "+format+"\n", a...)
	return 2
}

// parseInterspersed parses flags that may come before or after positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
