package cells

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// All widths are terminal cells of styled text, measured and cut with x/ansi.

// Fit cuts s to w cells (ending in "…" when cut) and pads it with spaces to exactly w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// Cut cuts s to at most w cells without padding.
func Cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		return ansi.Truncate(s, w, "…")
	}
	return s
}

const Ellipsis = "…"

// WordPrefix is s (plain or styled) whole when it fits in w cells, else its longest head that ends after a whole
// word (trailing spaces and ",;:·" dropped); inside a word only when no word break falls in the last two thirds
// of w (one long path or name).
func WordPrefix(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if Width(s) <= w {
		return s
	}
	head := ansi.Truncate(s, w, "")
	plain := ansi.Strip(head)
	if next := ansi.Strip(ansi.Cut(s, w, w+1)); next != " " { // the cut falls inside a word: back to its start
		i := strings.LastIndexByte(plain, ' ')
		if i < 0 || Width(plain[:i]) < w/3 {
			return head
		}
		plain = plain[:i]
	}
	return ansi.Truncate(s, Width(strings.TrimRight(plain, " ,;:·")), "")
}

// CutWords cuts s to at most w cells at a word (WordPrefix), ending in "…" when cut.
func CutWords(s string, w int) string {
	if Width(s) <= w {
		return s
	}
	if w < 2 {
		return Cut(s, w)
	}
	return WordPrefix(s, w-1) + Ellipsis
}

// CutParts cuts a plain "head · part · part" text to at most w cells after its last whole part that fits
// ("Breaks & more · 1 CUDA-graph skip · …"), else at a word (CutWords).
func CutParts(s string, w int) string {
	if Width(s) <= w {
		return s
	}
	if best := LastPart(s, w); best > 0 && Width(s[:best]) >= w/2 {
		return s[:best] + PartSep + Ellipsis
	}
	return CutWords(s, w)
}

// PartSep separates the parts of a "head · part · part" text.
const PartSep = " · "

// LastPart is the byte offset in plain where its last whole part ends such that the text up to it, then
// " · …", fits w cells; -1 where not even the first part does.
func LastPart(plain string, w int) int {
	best := -1
	for i := strings.Index(plain, PartSep); i > 0 && Width(plain[:i]+PartSep+Ellipsis) <= w; {
		best = i
		j := strings.Index(plain[i+len(PartSep):], PartSep)
		if j < 0 {
			break
		}
		i += len(PartSep) + j
	}
	return best
}

// CutSite cuts a "file.py:12 fn" text to w cells: the function goes first, then the file name from the left
// ("…compile.py:18"); the line number is never cut. shift is how many bytes the text lost at its front, less
// the ellipsis put there (0 when nothing was cut from the left), for match offsets.
func CutSite(s string, w int) (string, int) {
	if Width(s) <= w || w <= 0 {
		return Cut(s, w), 0
	}
	site, rest, _ := strings.Cut(s, " ")
	if !strings.Contains(site, ".") { // no file name: a function
		return Cut(s, w), 0
	}
	if sw := Width(site); sw <= w {
		if rest != "" && w-sw-1 >= 3 {
			return site + " " + Cut(rest, w-sw-1), 0
		}
		return site, 0
	}
	rs := []rune(site)
	keep := rs[len(rs)-max(w-1, 0):]
	k := len(site) - len(string(keep))
	return Ellipsis + string(keep), k - len(Ellipsis)
}

// Width is the display width of styled text.
func Width(s string) int { return ansi.StringWidth(s) }

// Spread puts left and right on one line of exactly w cells, the right part flush right; when both do not fit
// the right part wins up to half the width and the left part is cut.
func Spread(left, right string, w int) string {
	lw, rw := Width(left), Width(right)
	if lw+1+rw <= w {
		return left + strings.Repeat(" ", w-lw-rw) + right
	}
	if rw > w/2 {
		right = Cut(right, w/2)
		rw = Width(right)
	}
	return Fit(left, w-rw-1) + " " + right
}

// Wrap word-wraps plain or styled text to w cells per line (long words are broken).
func Wrap(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		wrapped := ansi.Wrap(para, w, " /-")
		out = append(out, strings.Split(wrapped, "\n")...)
	}
	return out
}

// PadLines returns exactly h lines of exactly w cells: lines are fitted, missing ones are blank, extra ones dropped.
func PadLines(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = Fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return out
}
