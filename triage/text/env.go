package text

import (
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/xo/terminfo"
)

// Whether a terminal shows only ASCII (no ·, ×, —, …, →), decided from the environment as if stdout were the
// terminal, so that `report | less` looks as it would on the screen:
//   - colorprofile.Env reads TERM and NO_COLOR: TERM=dumb or no TERM at all is NoTTY, NO_COLOR=1 is Ascii;
//     both mean ASCII here.
//   - colorprofile rates any other TERM as ANSI at least (vt100 included: its terminfo is only read to
//     upgrade to true colour), so the terminfo entry itself is read: a terminal without colours (vt52,
//     vt100, vt220) is an old one, ASCII. An unknown entry decides nothing.
//   - x/term and the Charm stack do not read the locale: LC_ALL, else LC_CTYPE, else LANG naming a charset
//     other than UTF-8 ("C", "POSIX", "en_US.ISO-8859-1") means ASCII; none set decides nothing.

// ASCIIOnly says whether the environment's terminal or locale can show only ASCII.
func ASCIIOnly(environ []string) bool {
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
