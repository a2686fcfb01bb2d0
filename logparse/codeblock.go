package logparse

import (
	"bufio"
	"bytes"
	"io"
)

// codeBlockIndent is what every non-blank line of head starts with where the input was pasted as a code block
// (pasted-logs.md §2: four spaces or a tab before every line, behind Markdown quotes `> ` too, and the more
// indentation all its lines share), nil otherwise. whole: head is the whole input (its last line is complete);
// else a last line head cuts is not looked at. A log whose every line of its first 8 KB is indented is a paste:
// torch, Python's tracebacks and the program print their first lines at column 0. Records already read behind
// such indentation line by line (bareHead, dedent); what the input-wide indentation adds is a line that only
// column 0 makes a record: an exception line without its traceback.
func codeBlockIndent(head []byte, whole bool) []byte {
	if !whole {
		i := bytes.LastIndexByte(head, '\n')
		if i < 0 {
			return nil
		}
		head = head[:i+1]
	}
	var common []byte
	seen := false
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(bytes.TrimSpace(bytes.TrimLeft(line, "> "))) == 0 {
			continue
		}
		lead := line[:len(line)-len(bytes.TrimLeft(line, "> \t"))]
		if !seen {
			common, seen = lead, true
			continue
		}
		n := 0
		for n < len(common) && n < len(lead) && common[n] == lead[n] {
			n++
		}
		common = common[:n]
	}
	ind := bytes.TrimLeft(common, ">") // the indentation after the quote marks ("> ", ">> ")
	for len(ind) > 0 && ind[0] == ' ' && bytes.HasPrefix(bytes.TrimLeft(ind[1:], " \t"), []byte(">")) {
		ind = bytes.TrimLeft(ind[1:], ">")
	}
	if q := len(common) - len(ind); q > 0 && len(ind) > 0 && ind[0] == ' ' { // the quote's own space
		ind = ind[1:]
	}
	if bytes.HasPrefix(ind, []byte("    ")) || bytes.IndexByte(ind, '\t') >= 0 {
		return common
	}
	return nil
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
