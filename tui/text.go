package tui

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// All widths are terminal cells of styled text, measured and cut with x/ansi.

// fit cuts s to w cells (ending in "…" when cut) and pads it with spaces to exactly w cells.
func fit(s string, w int) string {
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

// cut cuts s to at most w cells without padding.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		return ansi.Truncate(s, w, "…")
	}
	return s
}

const ellipsis = "…"

// wordPrefix is s (plain or styled) whole when it fits in w cells, else its longest head that ends after a whole
// word (trailing spaces and ",;:·" dropped); inside a word only when no word break falls in the last two thirds
// of w (one long path or name).
func wordPrefix(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	head := ansi.Truncate(s, w, "")
	plain := ansi.Strip(head)
	if next := ansi.Strip(ansi.Cut(s, w, w+1)); next != " " { // the cut falls inside a word: back to its start
		i := strings.LastIndexByte(plain, ' ')
		if i < 0 || width(plain[:i]) < w/3 {
			return head
		}
		plain = plain[:i]
	}
	return ansi.Truncate(s, width(strings.TrimRight(plain, " ,;:·")), "")
}

// cutWords cuts s to at most w cells at a word (wordPrefix), ending in "…" when cut.
func cutWords(s string, w int) string {
	if width(s) <= w {
		return s
	}
	if w < 2 {
		return cut(s, w)
	}
	return wordPrefix(s, w-1) + ellipsis
}

// cutParts cuts a plain "head · part · part" text to at most w cells after its last whole part that fits
// ("Breaks & more · 1 CUDA-graph skip · …"), else at a word (cutWords).
func cutParts(s string, w int) string {
	if width(s) <= w {
		return s
	}
	if best := lastPart(s, w); best > 0 && width(s[:best]) >= w/2 {
		return s[:best] + partSep + ellipsis
	}
	return cutWords(s, w)
}

// partSep separates the parts of a "head · part · part" text.
const partSep = " · "

// lastPart is the byte offset in plain where its last whole part ends such that the text up to it, then
// " · …", fits w cells; -1 where not even the first part does.
func lastPart(plain string, w int) int {
	best := -1
	for i := strings.Index(plain, partSep); i > 0 && width(plain[:i]+partSep+ellipsis) <= w; {
		best = i
		j := strings.Index(plain[i+len(partSep):], partSep)
		if j < 0 {
			break
		}
		i += len(partSep) + j
	}
	return best
}

// cutSite cuts a "file.py:12 fn" text to w cells: the function goes first, then the file name from the left
// ("…compile.py:18"); the line number is never cut. shift is how many bytes the text lost at its front, less
// the ellipsis put there (0 when nothing was cut from the left), for match offsets.
func cutSite(s string, w int) (string, int) {
	if width(s) <= w || w <= 0 {
		return cut(s, w), 0
	}
	site, rest, _ := strings.Cut(s, " ")
	if !strings.Contains(site, ".") { // no file name: a function
		return cut(s, w), 0
	}
	if sw := width(site); sw <= w {
		if rest != "" && w-sw-1 >= 3 {
			return site + " " + cut(rest, w-sw-1), 0
		}
		return site, 0
	}
	rs := []rune(site)
	keep := rs[len(rs)-max(w-1, 0):]
	k := len(site) - len(string(keep))
	return ellipsis + string(keep), k - len(ellipsis)
}

// width is the display width of styled text.
func width(s string) int { return ansi.StringWidth(s) }

// spread puts left and right on one line of exactly w cells, the right part flush right; when both do not fit
// the right part wins up to half the width and the left part is cut.
func spread(left, right string, w int) string {
	lw, rw := width(left), width(right)
	if lw+1+rw <= w {
		return left + strings.Repeat(" ", w-lw-rw) + right
	}
	if rw > w/2 {
		right = cut(right, w/2)
		rw = width(right)
	}
	return fit(left, w-rw-1) + " " + right
}

// wrapText word-wraps plain or styled text to w cells per line (long words are broken).
func wrapText(s string, w int) []string {
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

// padLines returns exactly h lines of exactly w cells: lines are fitted, missing ones are blank, extra ones dropped.
func padLines(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return out
}

// shortPath keeps the base name of a source path (repro.py).
func shortPath(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Base(p)
}

// site is "repro.py:12".
func site(file string, line int) string {
	if file == "" {
		return ""
	}
	if line <= 0 {
		return shortPath(file)
	}
	return shortPath(file) + ":" + strconv.Itoa(line)
}

// rankList is "r0 r1" (at most max ranks, then "+N").
func rankList(ranks []int, limit int) string {
	var b strings.Builder
	for i, r := range ranks {
		if i == limit {
			fmt.Fprintf(&b, " +%d", len(ranks)-limit)
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "r%d", r)
	}
	return b.String()
}

// joinInts is "0,1,3".
func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

// clock formats an elapsed time as 0:41 or 1:02:03.
func clock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int(d.Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// plural is "1 record" / "3 records".
func plural(n int, word string) string { return report.Plural(n, word) }

// shellJoin is argv as a shell reads it back: what the command card shows can be pasted and run again.
func shellJoin(argv []string) string { return runs.ShellJoin(argv) }

// clean makes text from a log safe to draw (session.Clean: escape sequences removed, tabs expanded, other control
// characters shown as spaces).
func clean(s string) string { return session.Clean(s) }
