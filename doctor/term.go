package doctor

import (
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
)

// termFacts is the terminal doctor runs in.
type termFacts struct {
	Term      string `json:"term"`
	ColorTerm string `json:"colorterm,omitempty"`
	TTY       bool   `json:"tty"`    // stdout is a terminal
	Colors    string `json:"colors"` // TrueColor, ANSI256, ANSI, Ascii or NoTTY (no colours)
	Width     int    `json:"width,omitempty"`
	Height    int    `json:"height,omitempty"`
	Tmux      bool   `json:"tmux"`
	Screen    bool   `json:"screen"`
	SSH       bool   `json:"ssh"`
	NoColor   bool   `json:"no_color"`
}

func examineTerminal(stdout io.Writer) termFacts {
	env := os.Environ()
	get := func(name string) string { v, _ := os.LookupEnv(name); return v }
	t := termFacts{Term: get("TERM"), ColorTerm: get("COLORTERM"), Tmux: get("TMUX") != "", Screen: get("STY") != "",
		SSH: get("SSH_CONNECTION") != "" || get("SSH_TTY") != ""}
	_, t.NoColor = os.LookupEnv("NO_COLOR")
	profile := colorprofile.Env(env) // what the TUI gets in a terminal with this environment
	if file, ok := stdout.(term.File); ok && term.IsTerminal(file.Fd()) {
		t.TTY = true
		profile = colorprofile.Detect(stdout, env)
		t.Width, t.Height, _ = term.GetSize(file.Fd())
	}
	t.Colors = profile.String()
	return t
}

func checkTerminal(t termFacts) check {
	c := check{ID: "terminal", Title: "terminal", Status: statusOK}
	term := t.Term
	if term == "" {
		term = "unset"
	}
	c.Detail = "TERM=" + term
	if t.ColorTerm != "" {
		c.Detail += " COLORTERM=" + t.ColorTerm
	}
	colors := map[string]string{"TrueColor": "24-bit colour", "ANSI256": "256 colours", "ANSI": "16 colours",
		"Ascii": "no colours", "NoTTY": "no colours"}[t.Colors]
	c.Detail += ", " + colors
	if t.TTY {
		c.Detail += fmt.Sprintf(", %d×%d", t.Width, t.Height)
	} else {
		c.Detail += " (stdout is not a terminal: read from the environment)"
	}
	switch {
	case t.Term == "" || t.Term == "dumb":
		c.Status = statusWarn
		c.Detail += ": the TUI needs a real terminal (report, check and doctor work anywhere)"
		c.Fix = "export TERM=xterm-256color"
	case t.NoColor:
		c.Detail += " (NO_COLOR is set)"
	case t.Colors == "ANSI" || t.Colors == "Ascii":
		c.Status = statusWarn
		c.Fix = "export TERM=xterm-256color (and COLORTERM=truecolor if your terminal has 24-bit colour)"
	}
	return c
}

// checkTmux: over SSH, a dropped connection ends torchtriage and the run it supervises unless tmux (or screen)
// holds the session.
func checkTmux(f facts) check {
	t := f.Terminal
	c := check{ID: "tmux", Title: "tmux", Status: statusOK}
	switch {
	case t.Tmux:
		c.Detail = "inside tmux"
	case t.Screen:
		c.Detail = "inside screen"
	case !t.SSH:
		c.Detail = "not over SSH"
	case f.Tmux != "":
		c.Status, c.Detail = statusWarn, "over SSH outside tmux: a dropped connection ends torchtriage and its run"
		c.Fix = "tmux new -s triage (then torchtriage run …; reattach with tmux attach -t triage)"
	default:
		c.Status, c.Detail = statusWarn, "over SSH outside tmux, and tmux is not installed: a dropped connection "+
			"ends torchtriage and its run"
		c.Fix = "install tmux (apt-get install tmux) and start it before torchtriage run"
	}
	return c
}
