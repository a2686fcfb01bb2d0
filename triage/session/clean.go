package session

import (
	"bytes"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// maxLastText bounds the bytes lastText keeps of a line.
const maxLastText = 1024

// lastText is what a line shows as a run's last output: its last non-blank part between '\r's (a progress bar's
// latest state), cleaned, without surrounding spaces and cut to maxLastText bytes; "" when it is blank.
func lastText(raw []byte) string {
	for end := len(raw); end >= 0; {
		start := bytes.LastIndexByte(raw[:end], '\r') + 1
		seg := bytes.TrimLeft(raw[start:end], " \t")
		if len(seg) > maxLastText {
			seg = seg[:maxLastText]
		}
		if s := strings.TrimSpace(strings.ToValidUTF8(Clean(string(seg)), "\uFFFD")); s != "" {
			return s
		}
		end = start - 1
	}
	return ""
}

// Clean makes a line safe to draw: ANSI sequences go, tabs become spaces to the next multiple of 8, other
// control bytes become spaces.
func Clean(s string) string {
	ok := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	s = ansi.Strip(s)
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch {
		case r == '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		case r < 0x20 || r == 0x7f:
			r = ' '
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}
