package triage

import (
	"bytes"
	"encoding/json"
	"io"
)

// writeIndentedJSON writes v as json.Encoder with SetIndent("", indent) does, byte for byte, with a faster
// indentation pass: the encoder's own runs a full JSON scanner over its output (0.4 s of a 31 MB report), while
// Marshal's output is known to be valid and compact.
func writeIndentedJSON(w io.Writer, v any, indent string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // HTML escaping as the encoder does it
	if err := enc.Encode(v); err != nil {
		return err
	}
	compact := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	out := indentJSON(make([]byte, 0, len(compact)+len(compact)/2), compact, indent)
	_, err := w.Write(append(out, '\n'))
	return err
}

// indentJSON appends src, valid compact JSON, indented as json.Indent(dst, src, "", indent) does.
func indentJSON(dst, src []byte, indent string) []byte { return indentJSONAt(dst, src, indent, 0) }

// indentJSONAt indents src as the values it holds would be at depth inside a document: src may be several
// values separated by commas (elements of an array at that depth, json_report.go).
func indentJSONAt(dst, src []byte, indent string, depth int) []byte {
	open := false       // after '{' or '[': the next byte is a value on a new line, or the container's end
	pad := []byte{'\n'} // a newline and the indent as many times as the deepest line so far: one copy a line
	newline := func() {
		n := 1 + depth*len(indent)
		for len(pad) < n {
			pad = append(pad, indent...)
		}
		dst = append(dst, pad[:n]...)
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open {
			open = false
			if c == '}' || c == ']' {
				dst = append(dst, c) // empty: "{}", "[]"
				continue
			}
			depth++
			newline()
		}
		switch c {
		case '"':
			end := stringEnd(src, i)
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			dst = append(dst, c)
			open = true
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// stringEnd returns the index after the closing quote of the JSON string that starts at src[i].
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src)
		}
		q := j + k
		n := 0 // backslashes right before the quote: an odd number escapes it
		for p := q - 1; p > i && src[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
	return len(src)
}
