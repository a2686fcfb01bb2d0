package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/torchtriage/torchtriage/triage/report"
)

// jsonChunk is how many elements of a long list one goroutine writes at a time (a knob; tests lower it).
var JsonChunk = 64

// writeReportJSON writes r as json.Encoder with SetIndent("", indent) does, byte for byte, with its long lists (graph
// breaks, recompiles, findings: thousands of entries in a big run) written by jsonAppender in chunks on every
// core while w takes the chunks before them. The rest (the skeleton, with those lists null) is encoded by
// encoding/json and indented once, and each list is put in place of its null.
func writeReportJSON(w io.Writer, r ReportJSON, indent string) error {
	rep := *r.Report
	lists := []jsonList{
		appendList("graph_breaks", rep.GraphBreaks, func(w *jsonAppender, b **report.BreakSummary) { w.breakJSON(*b) }),
		appendList("recompiles", rep.Recompiles, func(w *jsonAppender, s **report.RecompileSummary) { w.recompileJSON(*s) }),
		appendList("findings", r.Findings, (*jsonAppender).findingJSON),
	}
	rep.GraphBreaks, rep.Recompiles, r.Findings = nil, nil, nil
	r.Report = &rep
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(r); err != nil { // HTML escaping as the encoder does it
		return err
	}
	skel := indentJSON(nil, bytes.TrimSuffix(buf.Bytes(), []byte("\n")), indent)
	at := make([]int, len(lists)) // where each list's null is in the skeleton
	for i, l := range lists {
		at[i] = topNull(skel, l.key)
		if at[i] < 0 || i > 0 && at[i] < at[i-1] {
			return fmt.Errorf("report JSON: no top-level %q in its place", l.key)
		}
	}
	chunks := writeChunks(lists, indent)
	ew := &errWriter{w: w}
	from := 0
	for i, l := range lists {
		if l.n < 0 {
			continue // nil: null, as in the skeleton
		}
		ew.write(skel[from:at[i]])
		ew.write([]byte{'['})
		if l.n > 0 { // the elements one level below the top-level member, the closing bracket at its level
			lead := "\n" + strings.Repeat(indent, 2)
			for k := 0; k*JsonChunk < l.n; k++ {
				if k > 0 {
					ew.write([]byte{','})
				}
				ew.write([]byte(lead))
				chunks.take(ew.write) // every chunk is taken, after an error too: no writer is left waiting
			}
			ew.write([]byte("\n" + indent))
		}
		ew.write([]byte{']'})
		from = at[i] + len("null")
	}
	ew.write(skel[from:])
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

// jsonList is one long list of a report: n elements (-1: a nil slice); write appends the elements of [from, to)
// to buf, without the brackets, indented as they are inside the list.
type jsonList struct {
	key   string
	n     int
	write func(buf []byte, from, to int, indent string) []byte
}

// appendList is the list s, its elements written by elem at the depth of a top-level member's elements.
func appendList[T any](key string, s []T, elem func(*jsonAppender, *T)) jsonList {
	n := len(s)
	if s == nil {
		n = -1
	}
	return jsonList{key: key, n: n, write: func(buf []byte, from, to int, indent string) []byte {
		w := jsonAppender{indent: indent, depth: 2, b: buf}
		for i := from; i < to; i++ {
			if i > from {
				w.b = append(w.b, ',')
				w.newline()
			}
			elem(&w, &s[i])
		}
		return w.b
	}}
}

// chunkPipe hands the chunks of a report's lists to the writer in order while goroutines write the ones after
// them: at most ahead chunks are written and not yet taken, each in a buffer a taken chunk gave back (so a report
// of tens of MB needs a few chunks' worth of memory, not its size).
type chunkPipe struct {
	done  []chan []byte
	slots chan struct{}
	free  chan []byte
	next  int
}

// writeChunks starts writing the chunks of lists (in their order, elements of jsonChunk) on every core.
func writeChunks(lists []jsonList, indent string) *chunkPipe {
	type job struct{ list, from, to int }
	var jobs []job
	for i, l := range lists {
		for from := 0; from < l.n; from += JsonChunk {
			jobs = append(jobs, job{i, from, min(from+JsonChunk, l.n)})
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(jobs))
	ahead := 2 * max(workers, 1)
	p := &chunkPipe{done: make([]chan []byte, len(jobs)), slots: make(chan struct{}, ahead), free: make(chan []byte, ahead)}
	for i := range p.done {
		p.done[i] = make(chan []byte, 1)
	}
	var next atomic.Int64
	for range workers {
		go func() {
			for {
				p.slots <- struct{}{} // a slot before a job: the jobs holding slots are the next ones taken
				j := int(next.Add(1) - 1)
				if j >= len(jobs) {
					<-p.slots
					return
				}
				var buf []byte
				select {
				case buf = <-p.free:
				default:
					buf = make([]byte, 0, 256<<10) // about a chunk's worth
				}
				jb := jobs[j]
				p.done[j] <- lists[jb.list].write(buf[:0], jb.from, jb.to, indent)
			}
		}()
	}
	return p
}

// take passes the next chunk to use, then gives its buffer back.
func (p *chunkPipe) take(use func([]byte)) {
	c := <-p.done[p.next]
	p.next++
	use(c)
	<-p.slots
	select {
	case p.free <- c:
	default:
	}
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
