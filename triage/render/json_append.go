package render

import (
	"strconv"
	"unicode/utf8"
)

// jsonAppender writes indented JSON straight into a byte slice, byte for byte as json.Encoder with
// SetIndent("", indent) writes it (HTML escaping included): the report's long lists are tens of MB, and
// encoding/json's reflection, its copy of each Marshal's output and then a pass to indent it were most of a JSON
// report's tail. It only writes; json_report_lists.go says what it writes for each type, and
// TestAppendJSONMatchesEncoder holds it to encoding/json on random values of those types.
type jsonAppender struct {
	b      []byte
	indent string
	depth  int
	counts []int  // members written so far in each open object or array
	pad    []byte // a newline and the indent as many times as the deepest line so far: one copy a line
}

// newline starts a line at the current depth.
func (w *jsonAppender) newline() {
	n := 1 + w.depth*len(w.indent)
	if len(w.pad) == 0 {
		w.pad = append(w.pad, '\n')
	}
	for len(w.pad) < n {
		w.pad = append(w.pad, w.indent...)
	}
	w.b = append(w.b, w.pad[:n]...)
}

func (w *jsonAppender) open(c byte) {
	w.b = append(w.b, c)
	w.counts = append(w.counts, 0)
	w.depth++
}

func (w *jsonAppender) close(c byte) {
	n := w.counts[len(w.counts)-1]
	w.counts = w.counts[:len(w.counts)-1]
	w.depth--
	if n > 0 {
		w.newline()
	}
	w.b = append(w.b, c)
}

// next starts a member or element: a comma after the one before, a new line.
func (w *jsonAppender) next() {
	i := len(w.counts) - 1
	if w.counts[i] > 0 {
		w.b = append(w.b, ',')
	}
	w.counts[i]++
	w.newline()
}

// key starts a member; k needs no escaping (the struct tags' names).
func (w *jsonAppender) Key(k string) {
	w.next()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':', ' ')
}

func (w *jsonAppender) str(k, v string) { w.Key(k); w.b = appendJSONString(w.b, v) }
func (w *jsonAppender) num(k string, v int) {
	w.Key(k)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
}
func (w *jsonAppender) boolean(k string, v bool) { w.Key(k); w.b = strconv.AppendBool(w.b, v) }

// strOmit, numOmit and boolOmit write a member tagged omitempty: nothing for the zero value.
func (w *jsonAppender) strOmit(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}
func (w *jsonAppender) numOmit(k string, v int) {
	if v != 0 {
		w.num(k, v)
	}
}
func (w *jsonAppender) boolOmit(k string, v bool) {
	if v {
		w.boolean(k, true)
	}
}

// listStart starts a list member: null and false for a nil list (nothing more to write), else '[' and true (the
// caller writes the elements and closes it).
func (w *jsonAppender) listStart(k string, null bool) bool {
	w.Key(k)
	if null {
		w.b = append(w.b, "null"...)
		return false
	}
	w.open('[')
	return true
}

// ints writes a list of numbers: null for a nil slice.
func (w *jsonAppender) ints(k string, v []int) {
	if w.listStart(k, v == nil) {
		for _, x := range v {
			w.next()
			w.b = strconv.AppendInt(w.b, int64(x), 10)
		}
		w.close(']')
	}
}

// strs writes a list of strings: null for a nil slice.
func (w *jsonAppender) strs(k string, v []string) {
	if w.listStart(k, v == nil) {
		for _, x := range v {
			w.next()
			w.b = appendJSONString(w.b, x)
		}
		w.close(']')
	}
}

// jsonSafe marks the ASCII bytes a JSON string holds as they are (encoding/json with HTML escaping: not '"',
// '\\', control characters, '<', '>' or '&').
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString appends s as a JSON string the way encoding/json writes it with HTML escaping: '"' and '\\'
// escaped, \b \f \n \r \t by name, other control characters and '<', '>', '&' as \u00XX, U+2028 and U+2029 as
// \u2028 and \u2029, and each byte of invalid UTF-8 as \ufffd.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) && plain8(s, i) { // eight plain ASCII bytes at a time: most of a report's text
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plain8 reports whether the 8 bytes of s at i are all ASCII that a JSON string holds as it is (not a control
// character, '"', '\\', '<', '>' or '&'): word-at-a-time tests, each exact for "some byte" (a byte below 0x20; a
// byte of 0x80 or more; a byte equal to one of the five).
func plain8(s string, i int) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
	q, bs, lt, gt, amp := x^(ones*'"'), x^(ones*'\\'), x^(ones*'<'), x^(ones*'>'), x^(ones*'&')
	t := (x-ones*0x20)&^x | x |
		(q-ones)&^q | (bs-ones)&^bs | (lt-ones)&^lt | (gt-ones)&^gt | (amp-ones)&^amp
	return t&highs == 0
}
