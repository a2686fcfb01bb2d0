package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/triage/text"
)

// How text output fits where it goes.
//
// Width: --width N, else the terminal's width when stdout is one (x/term), else 80.
//
// ASCII only (no ·, ×, —, …, →) is decided from the environment (text.ASCIIOnly), as if stdout were the
// terminal, so that `report | less` looks as it would on the screen.
//
// Colour (explain's styled rendering) is colorprofile.Detect on stdout: none into a pipe, with TERM=dumb or
// NO_COLOR, and never where ASCII is chosen.

// minWidth is the narrowest text output is fitted to.
const minWidth = 20

// widthValue is --width: columns to fit text to, 0 for the terminal's width.
type widthValue int

func (v *widthValue) String() string {
	if *v == 0 {
		return ""
	}
	return strconv.Itoa(int(*v))
}
func (v *widthValue) Type() string { return "int" }

func (v *widthValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a whole number", s)
	case n != 0 && n < minWidth:
		return fmt.Errorf("%d is narrower than %d columns (0 = the terminal's width)", n, minWidth)
	}
	*v = widthValue(n)
	return nil
}

// widthFlag declares --width on a command that prints text for a terminal.
func widthFlag(cmd *cobra.Command, p *int) {
	cmd.Flags().Var((*widthValue)(p), "width", "fit text to N columns (default: the terminal's width, else 80)")
	_ = cmd.RegisterFlagCompletionFunc("width", cobra.NoFileCompletions)
}

// textOptions is how cmd's text output fits its stdout, with --width (0 = not given).
func textOptions(cmd *cobra.Command, width int) text.Options {
	if width == 0 {
		width = terminalWidth(cmd.OutOrStdout())
	}
	return text.Options{Width: width, ASCII: text.ASCIIOnly(os.Environ())}
}

// terminalWidth is w's width when it is a terminal, else triage.DefaultWidth.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok && term.IsTerminal(f.Fd()) {
		if cols, _, err := term.GetSize(f.Fd()); err == nil && cols > 0 {
			return max(cols, minWidth)
		}
	}
	return text.DefaultWidth
}

// colorOK says whether styled, coloured output suits w (explain's rendering): not with ASCII, --no-color,
// NO_COLOR, TERM=dumb or into a pipe.
func colorOK(w io.Writer, o text.Options, noColor bool) bool {
	return !noColor && !o.ASCII && colorprofile.Detect(w, os.Environ()) >= colorprofile.ANSI
}
