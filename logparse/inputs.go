package logparse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
)

// Input is one stream to parse.
type Input struct {
	Name   string // shown in records and reports
	Path   string // file path, or "-" for standard input
	Trace  bool   // a TORCH_TRACE structured file
	Rank   int    // rank from the file name or the torchrun log tree, -1 when unknown
	Stream string // "stdout"/"stderr" when the file holds one stream
}

var (
	rankInName = regexp.MustCompile(`(?i)rank[_-]?(\d+)`)
	attemptDir = regexp.MustCompile(`attempt_\d+$`)
)

// IsTraceFile reports a TORCH_TRACE file name.
func IsTraceFile(name string) bool {
	return strings.HasPrefix(filepath.Base(name), "dedicated_log_torch_trace")
}

// inputFor describes one file.
func inputFor(path string) Input {
	in := Input{Name: path, Path: path, Trace: IsTraceFile(path), Rank: -1}
	base := filepath.Base(path)
	if m := rankInName.FindStringSubmatch(base); m != nil {
		in.Rank, _ = strconv.Atoi(m[1])
	}
	if stem := strings.TrimSuffix(base, filepath.Ext(base)); stem == "stdout" || stem == "stderr" {
		in.Stream = stem
		if n, ok := logDirRank(path); ok { // torchrun --log-dir: its local rank
			in.Rank = n
		}
	}
	return in
}

// Sink receives what parsing inputs yields. Under ParseInputs, Emit and OnFacts are called from its caller's
// goroutine only, in input order; OnRank and OnWarning from many goroutines.
type Sink struct {
	Emit      func(*Record)
	OnRank    func(rank int) // every rank seen in line prefixes (optional)
	OnWarning func(string)   // an input that is readable but looks wrong, e.g. binary (optional)
	OnFacts   func(Facts)    // what each input's lines showed beyond its records (optional)
	// Trace reads a TORCH_TRACE input (trace.Parse of logparse/trace, which imports this package: the caller
	// hands it in); a regular file is handed as its *os.File, at its start. Without it, an input that is a trace
	// is an error.
	Trace func(r io.Reader, opt Options, emit func(*Record)) error
	memo  *breakMemo // set by ParseInputs: one for all its inputs
}

// ParseInputs parses inputs concurrently (at most workers at once). It returns one error per input that could
// not be read, in input order; the others are still parsed. With keepText false, records of no known kind are
// not built (counting mode).
//
// The records reach sink.Emit in input order, all of the first input's, then the second's, and so on, each
// input's in its own order, and from the calling goroutine only: what the consumer makes of them (which
// records are its evidence, samples and first failures) is the same on every run, whichever input parsed
// faster. A later input's records wait in batches until the inputs before it are done; its parse waits once
// aheadBatches batches are waiting. OnFacts comes after an input's last record.
func ParseInputs(inputs []Input, workers int, keepText bool, stdin io.Reader, sink Sink) []error {
	if workers <= 0 {
		workers = 8
	}
	if sink.memo == nil && !keepText {
		sink.memo = newBreakMemo()
	}
	outs := make([]chan []*Record, len(inputs))
	facts := make([][]Facts, len(inputs))
	errs := make([]error, len(inputs))
	for i := range outs {
		outs[i] = make(chan []*Record, aheadBatches)
	}
	sem := make(chan struct{}, workers)
	go func() {
		for i, in := range inputs { // started in order: the input the caller waits for is always running
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				s := sink
				var batch []*Record // made at the first record: most small inputs have none
				s.Emit = func(r *Record) {
					if batch == nil {
						batch = make([]*Record, 0, batchRecords)
					}
					if batch = append(batch, r); len(batch) == batchRecords {
						outs[i] <- batch
						batch = nil
					}
				}
				if sink.OnFacts != nil {
					s.OnFacts = func(f Facts) { facts[i] = append(facts[i], f) }
				}
				errs[i] = ParseInput(in, keepText, stdin, s)
				if len(batch) > 0 {
					outs[i] <- batch
				}
				close(outs[i])
			}()
		}
	}()
	for i := range inputs {
		for batch := range outs[i] {
			for _, r := range batch {
				sink.Emit(r)
			}
		}
		for _, f := range facts[i] { // written before outs[i] was closed
			f.Input = inputs[i].Name
			sink.OnFacts(f)
		}
	}
	var out []error
	for _, err := range errs {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

// How many records go to ParseInputs's caller at once, and how many such batches an input parsed ahead of its
// turn may hold before its parse waits.
const (
	batchRecords = 256
	aheadBatches = 4
)

// ParseInput parses one input.
func ParseInput(in Input, keepText bool, stdin io.Reader, sink Sink) error {
	opt := Options{Input: in.Name, Stream: in.Stream, Rank: in.Rank, KeepText: keepText, SkipOther: !keepText,
		OnRank: sink.OnRank, OnFacts: sink.OnFacts, memo: sink.memo}
	emit := sink.Emit
	warnIfBinary := func(head []byte) {
		if sink.OnWarning != nil && LooksBinary(head) {
			sink.OnWarning(in.Name + ": looks like a binary file, not a text log; parsed what text it has")
		}
	}
	var r io.Reader
	if in.Path == "-" {
		if stdin == nil {
			stdin = os.Stdin
		}
		r = stdin
	} else {
		f, err := os.Open(in.Path)
		if err != nil {
			return fmt.Errorf("cannot read %s: %w", in.Path, unwrapPathErr(err))
		}
		defer f.Close()
		st, err := f.Stat()
		changed := false // the file shrank under the memory maps
		if err == nil && st.Mode().IsRegular() && (sink.OnWarning != nil || sink.OnFacts != nil) {
			defer func() {
				if now, err := f.Stat(); changed || err == nil && now.Size() < st.Size() {
					if sink.OnWarning != nil {
						sink.OnWarning(in.Name + " changed while being read (truncated or rewritten); parsed what was read")
					}
					if sink.OnFacts != nil { // the report's evidence says the input is partial
						sink.OnFacts(Facts{Changed: true, Input: in.Name})
					}
				}
			}()
		}
		if err == nil && st.Mode().IsRegular() && (!keepText || in.Trace) {
			head := make([]byte, headSize)
			n, _ := f.ReadAt(head, 0)
			warnIfBinary(head[:n])
			if in.Trace || SniffTrace(head[:n]) {
				return readTrace(in, f, opt, sink) // the file itself: the trace reader reads it in large chunks
			}
			if !keepText && codeBlockIndent(head[:n], int64(n) == st.Size()) == nil {
				opt.wrap = wrapOf(head[:n])
				err := ParseFileParallel(f, st.Size(), min(runtime.GOMAXPROCS(0), 8), opt, emit)
				changed = errors.Is(err, errChanged)
				if err != nil && !changed {
					return fmt.Errorf("reading %s: %w", in.Name, err)
				}
				return nil
			}
		}
		r = f
	}
	br := bufio.NewReaderSize(r, 64<<10)
	r = br
	head, peekErr := br.Peek(headSize)
	if ind := codeBlockIndent(head, peekErr != nil); ind != nil && !in.Trace && !keepText {
		// a paste indented as a code block, every line (pasted-logs.md §2): read as it was before the paste
		r = &dedentReader{r: br, indent: ind, bol: true}
		br = bufio.NewReaderSize(r, 64<<10)
		r = br
		head, _ = br.Peek(headSize)
	}
	if in.Path == "-" || keepText || in.Trace {
		warnIfBinary(head) // the parallel path above already looked
	}
	if !in.Trace {
		in.Trace = SniffTrace(head)
	}
	if in.Trace {
		return readTrace(in, r, opt, sink)
	}
	opt.wrap = wrapOf(head)
	if err := Parse(r, opt, emit); err != nil {
		return fmt.Errorf("reading %s: %w", in.Name, err)
	}
	return nil
}

// readTrace reads a TORCH_TRACE input through sink.Trace.
func readTrace(in Input, r io.Reader, opt Options, sink Sink) error {
	if sink.Trace == nil {
		return fmt.Errorf("reading %s: a TORCH_TRACE file, and no trace reader given", in.Name)
	}
	if err := sink.Trace(r, opt, sink.Emit); err != nil {
		return fmt.Errorf("reading %s: %w", in.Name, err)
	}
	return nil
}

// headSize is how much of an input's start is read to tell a trace or a binary file.
const headSize = 8192

// SniffTrace reports whether the start of a stream is a TORCH_TRACE file: its first line is a glog prefix
// followed by a JSON object.
func SniffTrace(head []byte) bool {
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line = head[:i]
	}
	line = UnquoteTrace(line)
	var li lineInfo
	if parseGlog(line, &li) {
		return len(li.body) > 1 && li.body[0] == '{' && li.body[1] == '"'
	}
	// a trace line pasted without its glog head: a JSON envelope of one of the trace's own keys
	for _, k := range [...]string{`{"compilation_metrics": `, `{"bwd_compilation_metrics": `, `{"dynamo_start": `,
		`{"artifact": `, `{"chromium_event": `, `{"dynamo_output_graph": `, `{"str": `} {
		if bytes.HasPrefix(line, []byte(k)) {
			return true
		}
	}
	return false
}

// UnquoteTrace takes off what a paste put in front of a TORCH_TRACE line: code-block indentation (spaces; a tab
// starts a payload line) and markdown quotes ("> ").
func UnquoteTrace(line []byte) []byte {
	for {
		t := bytes.TrimLeft(line, " ")
		if len(t) > 0 && t[0] == '>' {
			t = t[1:]
		} else {
			return t
		}
		line = t
	}
}

// LooksBinary reports whether the start of a file is not text (many NUL or control bytes). NULs it starts with
// are a hole, not binary: a log truncated under its writer (Parser.Write skips them).
func LooksBinary(head []byte) bool {
	head = head[SkipNUL(head, 0):]
	if len(head) == 0 {
		return false
	}
	bad := bytes.Count(head, []byte{0})
	for _, c := range head {
		if c < 0x09 || (c > 0x0d && c < 0x20 && c != 0x1b) {
			bad++
		}
	}
	return bad*10 > len(head)
}
