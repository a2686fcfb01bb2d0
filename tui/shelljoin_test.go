package tui

import "testing"

// The command the TUI shows is the one a shell runs when pasted: "#" starts a comment, "!" a history
// expansion and a line break a new command, so such arguments are quoted.
func TestShownCommandPastesBack(t *testing.T) {
	for argv, want := range map[[3]string]string{
		{"python", "-c", "print(1) # x"}: `python -c 'print(1) # x'`,
		{"echo", "hi!", "a"}:             `echo 'hi!' a`,
		{"sh", "-c", "a\nb"}:             "sh -c 'a\nb'",
		{"python", "r.py", "--lr=0.1"}:   `python r.py --lr=0.1`,
		{"echo", "#x", "y"}:              `echo '#x' y`,
	} {
		if got := shellJoin(argv[:]); got != want {
			t.Errorf("shellJoin(%q) = %q, want %q", argv, got, want)
		}
	}
}
