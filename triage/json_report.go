package triage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// jsonChunk is how many elements of a long list one goroutine encodes at a time (a knob; tests lower it).
var jsonChunk = 512

// writeReportJSON writes r as writeIndentedJSON(w, r, indent) does, byte for byte, with its long lists (graph
// breaks, recompiles, findings: thousands of entries in a big run) encoded and indented in chunks on every core.
// encoding/json encodes each element of a slice on its own, so the chunks joined by commas are the list's
// encoding; the rest (the skeleton, with those lists null) is encoded and indented once, and each list is put
// in place of its null.
func writeReportJSON(w io.Writer, r reportJSON, indent string) error {
	rep := *r.Report
	lists := []jsonList{
		listOf("graph_breaks", rep.GraphBreaks),
		listOf("recompiles", rep.Recompiles),
		listOf("findings", r.Findings),
	}
	rep.GraphBreaks, rep.Recompiles, r.Findings = nil, nil, nil
	r.Report = &rep
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(r); err != nil { // HTML escaping as the encoder does it
		return err
	}
	skel := indentJSON(nil, bytes.TrimSuffix(buf.Bytes(), []byte("\n")), indent)
	if err := encodeLists(lists, indent); err != nil {
		return err
	}
	// written piece by piece: the chunks go to w as they are (a buffered writer passes them on uncopied), not
	// into one buffer the size of the report first
	ew := &errWriter{w: w}
	at := 0
	for _, l := range lists {
		if l.n < 0 {
			continue // nil: null, as in the skeleton
		}
		i := topNull(skel, l.key)
		if i < 0 || i < at {
			return fmt.Errorf("report JSON: no top-level %q in its place", l.key)
		}
		ew.write(skel[at:i])
		ew.write([]byte{'['})
		if l.n > 0 { // the elements one level below the top-level member, the closing bracket at its level
			lead := "\n" + strings.Repeat(indent, 2)
			for k, c := range l.chunks {
				if k > 0 {
					ew.write([]byte{','})
				}
				ew.write([]byte(lead))
				ew.write(c)
			}
			ew.write([]byte("\n" + indent))
		}
		ew.write([]byte{']'})
		at = i + len("null")
	}
	ew.write(skel[at:])
	ew.write([]byte{'\n'})
	return ew.err
}

// errWriter writes until the first error, which it keeps.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) write(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

// jsonList is one long list of a report: n elements (-1: a nil slice), encoded by chunk (the elements of
// [from, to) without the brackets, indented as they are inside the list).
type jsonList struct {
	key    string
	n      int
	encode func(from, to int, indent string) ([]byte, error)
	chunks [][]byte
}

func listOf[T any](key string, s []T) jsonList {
	n := len(s)
	if s == nil {
		n = -1
	}
	return jsonList{key: key, n: n, encode: func(from, to int, indent string) ([]byte, error) {
		b, err := json.Marshal(s[from:to])
		if err != nil {
			return nil, err
		}
		b = b[1 : len(b)-1] // "[…]"
		return indentJSONAt(make([]byte, 0, len(b)+len(b)/2), b, indent, 2), nil
	}}
}

// encodeLists encodes the chunks of every list on GOMAXPROCS goroutines.
func encodeLists(lists []jsonList, indent string) error {
	type job struct{ list, chunk, from, to int }
	var jobs []job
	for i := range lists {
		l := &lists[i]
		for from := 0; from < l.n; from += jsonChunk {
			jobs = append(jobs, job{i, len(l.chunks), from, min(from+jsonChunk, l.n)})
			l.chunks = append(l.chunks, nil)
		}
	}
	errs := make([]error, len(jobs))
	inParallel(len(jobs), 1, func(from, _ int) {
		j := jobs[from]
		lists[j.list].chunks[j.chunk], errs[from] = lists[j.list].encode(j.from, j.to, indent)
	})
	return errors.Join(errs...)
}

// topNull finds `"key": null` among the members of the top-level object of indented JSON: its null's index, or -1.
func topNull(src []byte, key string) int {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '"':
			end := stringEnd(src, i)
			if depth == 1 && end-i == len(key)+2 && string(src[i+1:end-1]) == key && bytes.HasPrefix(src[end:], []byte(": null")) {
				return end + 2
			}
			i = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
	return -1
}
