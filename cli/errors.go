package cli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Exit statuses shared by the commands.
const (
	exitOK    = 0
	exitFail  = 1 // a rule failed, nothing matched, the tool could not do its job
	exitUsage = 2 // a usage error or unreadable input
)

// exitError ends a command with a status. A non-empty msg is printed as one line on stderr,
// "torchtriage CMD: msg", with "; see torchtriage CMD --help" for usage errors.
type exitError struct {
	code  int
	msg   string
	usage bool
	cmd   string // the command path, "torchtriage report"
}

func (e *exitError) Error() string { return e.msg }

// usageErr is a usage error of cmd: exit 2, with the pointer to --help.
func usageErr(cmd *cobra.Command, format string, a ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, a...), usage: true, cmd: cmd.CommandPath()}
}

// failErr ends cmd with code and a one-line message.
func failErr(cmd *cobra.Command, code int, format string, a ...any) error {
	return &exitError{code: code, msg: fmt.Sprintf(format, a...), cmd: cmd.CommandPath()}
}

// exitCode ends a command whose output already said everything (a failed gate: exit 1).
func exitCode(code int) error {
	if code == exitOK {
		return nil
	}
	return &exitError{code: code}
}

// codeOf maps what a command returned to the process exit status.
func codeOf(err error) int {
	if err == nil {
		return exitOK
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return exitUsage // cobra's own errors: an unknown command, a missing argument
}

// printError is fang's error handler: one line, never a usage page.
func printError(w io.Writer, err error) {
	var e *exitError
	if errors.As(err, &e) {
		if e.msg == "" {
			return
		}
		line := e.cmd + ": " + e.msg
		if e.usage {
			line += "; see " + e.cmd + " --help"
		}
		fmt.Fprintln(w, line)
		return
	}
	// cobra's own: `unknown command "x" for "torchtriage"` and its suggestions on the following lines
	msg, rest, _ := strings.Cut(err.Error(), "\n")
	if i := strings.Index(rest, "\t"); i >= 0 && strings.Contains(rest, "Did you mean") {
		msg += " (did you mean " + strings.TrimSpace(strings.SplitN(rest[i+1:], "\n", 2)[0]) + "?)"
	}
	fmt.Fprintf(w, "torchtriage: %s; see torchtriage --help\n", msg)
}

// flagError rewrites pflag's errors into one line that names the flag and what would work.
func flagError(cmd *cobra.Command, err error) error {
	var (
		notExist *pflag.NotExistError
		invalid  *pflag.InvalidValueError
		needs    *pflag.ValueRequiredError
	)
	switch {
	case errors.As(err, &invalid):
		return usageErr(cmd, "--%s: %s", invalid.GetFlag().Name, valueProblem(invalid))
	case errors.As(err, &needs):
		return usageErr(cmd, "--%s needs a value", needs.GetFlag().Name)
	case errors.As(err, &notExist):
		name := notExist.GetSpecifiedName()
		if name == "" {
			return usageErr(cmd, "unknown flag -%s", notExist.GetSpecifiedShortnames())
		}
		if near := nearestFlag(cmd, name); near != "" {
			return usageErr(cmd, "unknown flag --%s (did you mean --%s?)", name, near)
		}
		return usageErr(cmd, "unknown flag --%s", name)
	}
	return usageErr(cmd, "%v", err)
}

// valueProblem says what is wrong with a flag value: our own values explain themselves; pflag's numbers and
// booleans fail with strconv errors.
func valueProblem(e *pflag.InvalidValueError) string {
	inner := errors.Unwrap(e)
	var num *strconv.NumError
	switch {
	case errors.As(inner, &num) && e.GetFlag().Value.Type() == "bool":
		return fmt.Sprintf("%q is not true or false", e.GetValue())
	case errors.As(inner, &num) && errors.Is(num.Err, strconv.ErrRange):
		return fmt.Sprintf("%q is out of range", e.GetValue())
	case errors.As(inner, &num):
		return fmt.Sprintf("%q is not a whole number", e.GetValue())
	case inner != nil:
		return inner.Error()
	}
	return fmt.Sprintf("bad value %q", e.GetValue())
}

// nearestFlag is the command's flag closest to a mistyped name (edit distance ≤ 2), or "".
func nearestFlag(cmd *cobra.Command, name string) string {
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	return nearest(name, names)
}

// nearest is the first of candidates closest to name within edit distance 2, or "".
func nearest(name string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := levenshtein.ComputeDistance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
