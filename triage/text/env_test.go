package text

import "testing"

// The environment decides ASCII as colorprofile reads TERM and NO_COLOR, the terminfo entry says whether the
// terminal has colours (none: an old one), and the locale names the charset.
func TestASCIIOnly(t *testing.T) {
	for _, c := range []struct {
		env  []string
		want bool
	}{
		{[]string{"TERM=xterm-256color", "LANG=en_US.UTF-8"}, false},
		{[]string{"TERM=xterm-256color"}, false}, // no locale set: decides nothing
		{[]string{"TERM=xterm-256color", "LANG=de_DE.utf8@euro"}, false},
		{[]string{"TERM=xterm-256color", "LC_ALL=C"}, true},
		{[]string{"TERM=xterm-256color", "LC_ALL=C.UTF-8", "LANG=C"}, false}, // LC_ALL wins
		{[]string{"TERM=xterm-256color", "LC_CTYPE=en_US.ISO-8859-1", "LANG=en_US.UTF-8"}, true},
		{[]string{"TERM=xterm-256color", "LANG=en_US.UTF-8", "NO_COLOR=1"}, true},
		{[]string{"TERM=dumb", "LANG=en_US.UTF-8"}, true},
		{[]string{"LANG=en_US.UTF-8"}, true}, // no TERM: colorprofile takes it for dumb
		{[]string{"TERM=vt100", "LANG=en_US.UTF-8"}, true},
		{[]string{"TERM=no-such-terminal-xyz", "LANG=en_US.UTF-8"}, false},
	} {
		if got := ASCIIOnly(c.env); got != c.want {
			t.Errorf("ASCIIOnly(%q) = %v, want %v", c.env, got, c.want)
		}
	}
}
