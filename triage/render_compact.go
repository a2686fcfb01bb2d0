package triage

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
	s = flatLine(s)
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
	titleMax    = 200
	evidenceMax = 1000
)

// flatLine is the first line of s with its whitespace collapsed.
func flatLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if flat(s) {
		return s
	}
	return collapseSpaces(s)
}

// collapseSpaces is strings.Join(strings.Fields(s), " ") in one copy of its size for ASCII text (a guard printed
// with its column of spaces before the comment: tens of thousands of them in a big run's recompile details); text
// with a byte past ASCII goes the Fields way (non-ASCII spaces are Fields' too).
func collapseSpaces(s string) string {
	n, ascii := wordsLen(s)
	if !ascii {
		return strings.Join(strings.Fields(s), " ")
	}
	var b strings.Builder
	b.Grow(n)
	writeWords(&b, s)
	return b.String()
}

// writeOneLine writes OneLine(s, limit) to b. An ASCII line that fits (most guards) is written word by word, with
// no string made of it first.
func writeOneLine(b *strings.Builder, s string, limit int) {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if n, ascii := wordsLen(s); ascii && n <= limit {
		writeWords(b, s)
		return
	}
	b.WriteString(OneLine(s, limit))
}

// asciiSpace are the ASCII bytes strings.Fields splits at.
var asciiSpace = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

// wordsLen is the length of ASCII s's words one space apart; ascii is false (n not known) when s has a byte past
// ASCII.
func wordsLen(s string) (n int, ascii bool) {
	words := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return 0, false
		}
		if !asciiSpace[c] {
			n++
			if i == 0 || asciiSpace[s[i-1]] {
				words++
			}
		}
	}
	return n + max(words-1, 0), true
}

// writeWords writes ASCII s's words to b one space apart.
func writeWords(b *strings.Builder, s string) {
	sep := false
	for i := 0; i < len(s); {
		if asciiSpace[s[i]] {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && !asciiSpace[s[j]] {
			j++
		}
		if sep {
			b.WriteByte(' ')
		}
		b.WriteString(s[i:j])
		sep, i = true, j
	}
}

// flat reports that s is ASCII words, each one space apart: flatLine's Fields and Join would give s back.
func flat(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n':
			return false // non-ASCII spaces (U+0085, U+00A0…) are Fields' too: the slow way decides
		case c == ' ' && s[i-1] == ' ':
			return false
		}
	}
	return true
}

// clipRunes is flatLine cut to max runes exactly, for keys and ids: they must not change with how text is
// shown.
func clipRunes(s string, max int) string {
	s = flatLine(s)
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

func site(file string, line int) string {
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
