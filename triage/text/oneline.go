package text

import (
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// OneLine is the first line of s with its whitespace collapsed, at most limit runes. A longer one is cut after
// its last whole sentence that fits ("… is free. …") when that keeps at least half, else after its last whole
// word ("… static input data…"); inside a word only when the first word alone is too long.
func OneLine(s string, limit int) string {
	s = FlatLine(s)
	if len(s) <= limit || utf8.RuneCountInString(s) <= limit { // most fit: no rune slice made
		return s
	}
	r := []rune(s)
	if limit < 3 {
		return string(r[:limit])
	}
	keep := r[:limit-2]
	for i := len(keep) - 1; i >= max(len(keep)/2, 1); i-- {
		if keep[i] == ' ' && keep[i-1] == '.' {
			return string(keep[:i]) + " …"
		}
	}
	for i := len(keep) - 1; i > 0; i-- {
		if keep[i] == ' ' {
			return strings.TrimRight(string(keep[:i]), " ,;:") + "…"
		}
	}
	return string(r[:limit-1]) + "…"
}

// titleMax bounds a title (a finding's, the first failure's): the error or reason it quotes in full unless it
// runs on (a CUDA OOM lists every process), when it ends at a sentence. The report's sections quote evidence up
// to evidenceMax, wrapped; only a runaway line (a printed tensor, a dumped config) is cut there.
const (
	TitleMax    = 200
	EvidenceMax = 1000
)

// flatLine is the first line of s with its whitespace collapsed.
func FlatLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return Collapsed(s)
}

// collapsed is s with its whitespace collapsed (strings.Join(strings.Fields(s), " ")): s itself where it already
// is, no copy.
func Collapsed(s string) string {
	if flat(s) {
		return s
	}
	return collapseSpaces(s)
}

// collapseSpaces is strings.Join(strings.Fields(s), " ") in one copy of its size for plain text (a guard printed
// with its column of spaces before the comment: tens of thousands of them in a big run's recompile details); other
// text (a tab, a byte past ASCII: non-ASCII spaces are Fields' too) goes the Fields way.
func collapseSpaces(s string) string {
	if !plain(s) {
		return strings.Join(strings.Fields(s), " ")
	}
	var b strings.Builder
	b.Grow(spacedLen(s))
	writeSpaced(&b, s)
	return b.String()
}

// writeOneLine writes OneLine(s, limit) to b. A plain line that fits (most guards) is written in the runs between
// its runs of spaces, with no string made of it first.
func WriteOneLine(b *strings.Builder, s string, limit int) {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if plain(s) && (len(s) <= limit || spacedLen(s) <= limit) { // collapsing only shortens it
		writeSpaced(b, s)
		return
	}
	b.WriteString(OneLine(s, limit))
}

// notPlain marks the bytes of text that is not plain: whitespace other than ' ' (strings.Fields splits at it too)
// and bytes past ASCII.
var notPlain = func() (t [256]bool) {
	for c := utf8.RuneSelf; c < len(t); c++ {
		t[c] = true
	}
	for _, c := range "\t\n\v\f\r" {
		t[c] = true
	}
	return t
}()

// plain reports that s is ASCII whose only whitespace is ' ': its words are what lies between its spaces.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if notPlain[s[i]] {
			return false
		}
	}
	return true
}

// spacedLen is the length of plain s with its ends trimmed and each run of spaces made one (writeSpaced).
func spacedLen(s string) int {
	s = strings.Trim(s, " ")
	n := len(s)
	for {
		i := strings.Index(s, "  ") // a run to shorten: found vectorised, not byte by byte
		if i < 0 {
			return n
		}
		rest := strings.TrimLeft(s[i:], " ")
		n -= len(s) - i - len(rest) - 1
		s = rest
	}
}

// writeSpaced writes plain s to b with its ends trimmed and each run of spaces made one: what lies between the runs
// is written at once.
func writeSpaced(b *strings.Builder, s string) {
	s = strings.Trim(s, " ")
	for {
		i := strings.Index(s, "  ")
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i+1])
		s = strings.TrimLeft(s[i:], " ")
	}
}

// flat reports that s is ASCII words, each one space apart: flatLine's Fields and Join would give s back.
func flat(s string) bool {
	return s == "" || s[0] != ' ' && s[len(s)-1] != ' ' && plain(s) && !strings.Contains(s, "  ")
}

// clipRunes is flatLine cut to max runes exactly, for keys and ids: they must not change with how text is
// shown.
func ClipRunes(s string, max int) string {
	s = FlatLine(s)
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

func Site(file string, line int) string {
	if file == "" {
		return "?"
	}
	if line == 0 {
		return filepath.Base(file)
	}
	return filepath.Base(file) + ":" + strconv.Itoa(line)
}

// RankRanges renders sorted ranks compactly: "0,2–7". Written into one buffer (every item's ranks are worded).
func RankRanges(ranks []int) string {
	var b []byte
	for i := 0; i < len(ranks); {
		j := i
		for j+1 < len(ranks) && ranks[j+1] == ranks[j]+1 {
			j++
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(ranks[i]), 10)
		switch {
		case j == i+1:
			b = strconv.AppendInt(append(b, ','), int64(ranks[j]), 10)
		case j > i+1:
			b = strconv.AppendInt(append(b, "–"...), int64(ranks[j]), 10)
		}
		i = j + 1
	}
	return string(b)
}
