package logparse

import (
	"bufio"
	"bytes"
	"io"
)

// codeBlockIndent is the indentation every non-blank line of head starts with where the input was pasted as a
// code block (pasted-logs.md §2: four spaces or a tab before every line), nil otherwise. whole: head is the whole
// input (its last line is complete); else a last line head cuts is not looked at. A log whose every line of its
// first 8 KB is indented is a paste: torch, Python's tracebacks and the program print their first lines at
// column 0. Records already read behind such indentation line by line (bareHead, dedent); what the input-wide
// indentation adds is a line that only column 0 makes a record: an exception line without its traceback.
func codeBlockIndent(head []byte, whole bool) []byte {
	if !whole {
		i := bytes.LastIndexByte(head, '\n')
		if i < 0 {
			return nil
		}
		head = head[:i+1]
	}
	var ind []byte
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if ind == nil {
			switch {
			case line[0] == '\t':
				ind = line[:1]
			case bytes.HasPrefix(line, []byte("    ")):
				ind = line[:4]
			default:
				return nil
			}
			continue
		}
		if !bytes.HasPrefix(line, ind) {
			return nil
		}
	}
	return ind
}

// dedentReader is r with indent taken off the start of every line that has it (a code-block paste:
// codeBlockIndent).
type dedentReader struct {
	r      *bufio.Reader
	indent []byte
	bol    bool // the next byte starts a line
	buf    []byte
	err    error
}

func (d *dedentReader) Read(p []byte) (int, error) {
	for len(d.buf) == 0 && d.err == nil {
		line, err := d.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull { // a line longer than the buffer: its next piece continues it
			err = nil
		}
		if d.bol {
			line = bytes.TrimPrefix(line, d.indent)
		}
		if len(line) > 0 {
			d.bol = line[len(line)-1] == '\n'
		}
		d.buf = append(d.buf[:0], line...)
		d.err = err
	}
	if len(d.buf) == 0 {
		return 0, d.err
	}
	n := copy(p, d.buf)
	d.buf = d.buf[n:]
	return n, nil
}

var _ io.Reader = (*dedentReader)(nil)
