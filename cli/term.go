package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/xo/terminfo"

	"github.com/torchtriage/torchtriage/triage/text"
)

// How text output fits where it goes.
//
// Width: --width N, else the terminal's width when stdout is one (x/term), else 80.
//
// ASCII only (no ·, ×, —, …, →) is decided from the environment, as if stdout were the terminal, so that
// `report | less` looks as it would on the screen:
//   - colorprofile.Env reads TERM and NO_COLOR: TERM=dumb or no TERM at all is NoTTY, NO_COLOR=1 is Ascii;
//     both mean ASCII here.
//   - colorprofile rates any other TERM as ANSI at least (vt100 included: its terminfo is only read to
//     upgrade to true colour), so the terminfo entry itself is read: a terminal without colours (vt52,
//     vt100, vt220) is an old one, ASCII. An unknown entry decides nothing.
//   - x/term and the Charm stack do not read the locale: LC_ALL, else LC_CTYPE, else LANG naming a charset
//     other than UTF-8 ("C", "POSIX", "en_US.ISO-8859-1") means ASCII; none set decides nothing.
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
	return text.Options{Width: width, ASCII: asciiOnly(os.Environ())}
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

// asciiOnly says whether the environment's terminal or locale can show only ASCII.
func asciiOnly(environ []string) bool {
	if colorprofile.Env(environ) <= colorprofile.ASCII {
		return true
	}
	env := func(key string) string {
		for _, kv := range environ {
			if k, v, _ := strings.Cut(kv, "="); k == key {
				return v
			}
		}
		return ""
	}
	if ti, err := terminfo.Load(env("TERM")); err == nil && ti.Num(terminfo.MaxColors) < 8 {
		return true
	}
	for _, key := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := env(key); v != "" {
			return !utf8Locale(v)
		}
	}
	return false
}

// utf8Locale says whether a locale name ("en_US.UTF-8", "C.utf8", "de_DE.UTF-8@euro") names UTF-8.
func utf8Locale(name string) bool {
	_, charset, _ := strings.Cut(name, ".")
	charset, _, _ = strings.Cut(charset, "@")
	return strings.EqualFold(strings.ReplaceAll(charset, "-", ""), "utf8")
}

// colorOK says whether styled, coloured output suits w (explain's rendering): not with ASCII, --no-color,
// NO_COLOR, TERM=dumb or into a pipe.
func colorOK(w io.Writer, o text.Options, noColor bool) bool {
	return !noColor && !o.ASCII && colorprofile.Detect(w, os.Environ()) >= colorprofile.ANSI
}
