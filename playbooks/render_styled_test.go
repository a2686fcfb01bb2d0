package playbooks

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

var sgr = regexp.MustCompile(`\x1b\[([0-9;]*)m`)

// openStyle replays the SGR sequences of line from a plain state and names what is still on at its end ("" when
// nothing): a line that ends styled colours whatever a terminal or a pane prints after it.
func openStyle(line string) string {
	var fg, bg, bold, under bool
	for _, m := range sgr.FindAllStringSubmatch(line, -1) {
		ps := strings.Split(m[1], ";")
		for i := 0; i < len(ps); i++ {
			switch ps[i] {
			case "", "0":
				fg, bg, bold, under = false, false, false, false
			case "1":
				bold = true
			case "22":
				bold = false
			case "4":
				under = true
			case "24":
				under = false
			case "38", "48":
				on := true
				if ps[i] == "38" {
					fg = on
				} else {
					bg = on
				}
				if i+1 < len(ps) && ps[i+1] == "5" {
					i += 2
				} else if i+1 < len(ps) && ps[i+1] == "2" {
					i += 4
				}
			case "39":
				fg = false
			case "49":
				bg = false
			}
		}
	}
	var open []string
	for name, on := range map[string]bool{"fg": fg, "bg": bg, "bold": bold, "underline": under} {
		if on {
			open = append(open, name)
		}
	}
	return strings.Join(open, ",")
}

// Every coloured line ends with its styles closed: a code span or a URL wrapped onto the next line is styled again
// there, not carried over into the pane border or the line after it.
func TestStyledLinesCloseTheirStyles(t *testing.T) {
	s := mustBuiltin(t)
	for _, p := range s.All() {
		for _, w := range []int{40, 60, 80} {
			for i, line := range strings.Split(Render(p, w, true), "\n") {
				if open := openStyle(line); open != "" {
					t.Errorf("%s at %d: line %d ends with %s still on: %q", p.ID, w, i+1, open, line)
				}
			}
		}
	}
}

// The coloured and the plain rendering say the same words, in the same order (backticks, bullets and margins
// aside), and a list item's wrapped lines hang under its text, not under its number.
func TestStyledSameWordsAndHangingIndent(t *testing.T) {
	s := mustBuiltin(t)
	for _, p := range s.All() {
		for _, w := range []int{40, 80} {
			styled, plain := ansi.Strip(Render(p, w, true)), Render(p, w, false)
			if alnum(styled) != alnum(plain) {
				t.Errorf("%s at %d: the coloured rendering's words differ from the plain one's:\n%s\n---\n%s", p.ID, w, styled, plain)
			}
		}
	}
	p, _ := s.Get("gb-item")
	lines := strings.Split(ansi.Strip(Render(p, 60, true)), "\n")
	item := -1
	for i, l := range lines {
		if strings.HasPrefix(l, styledMargin+"2. ") {
			item = i
		}
	}
	if item < 0 || item+1 >= len(lines) {
		t.Fatalf("no wrapped item 2 in:\n%s", strings.Join(lines, "\n"))
	}
	if next := lines[item+1]; !strings.HasPrefix(next, styledMargin+"   ") || strings.HasPrefix(next, styledMargin+"    ") {
		t.Errorf("item 2's next line does not hang under its text: %q", next)
	}
	if strings.Contains(strings.Join(lines, "\n"), "`") {
		t.Error("a code span kept its backticks")
	}
}

func TestInlineWordsKeepPunctuationAndStrayBackticks(t *testing.T) {
	var got []string
	for _, w := range inlineWords("use `x * s`; then `a` b`c") {
		got = append(got, ansi.Strip(w.String()))
	}
	if want := "use|x|*|s;|then|a|b`c"; strings.Join(got, "|") != want {
		t.Errorf("words %q, want %q", strings.Join(got, "|"), want)
	}
}
