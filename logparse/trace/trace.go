package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/torchtriage/torchtriage/logparse"
)

// envelope is the JSON object on a TORCH_TRACE line (only the fields torchtriage uses).
type envelope struct {
	Str     []json.RawMessage `json:"str"`
	Metrics *traceMetrics     `json:"compilation_metrics"`
	// bwd_compilation_metrics, compilation_metrics_runtime, bwd_compilation_metrics_runtime (compile.go)
	BwdMetrics   *traceMetrics `json:"bwd_compilation_metrics"`
	RtMetrics    *traceMetrics `json:"compilation_metrics_runtime"`
	BwdRtMetrics *traceMetrics `json:"bwd_compilation_metrics_runtime"`
	Artifact     *struct {
		Name string `json:"name"`
	} `json:"artifact"`
	DynamoStart *struct {
		Stack []struct {
			Line     int             `json:"line"`
			Name     string          `json:"name"`
			Filename json.RawMessage `json:"filename"`
		} `json:"stack"`
	} `json:"dynamo_start"`
	DDPSplitGraph *struct{} `json:"optimize_ddp_split_graph"` // ddp.go
	DDPSplitChild *struct {
		Name string `json:"name"`
	} `json:"optimize_ddp_split_child"`
	CreateSymbol   *traceSymbol `json:"create_symbol"`          // shapes.go
	CreateUnbacked *traceSymbol `json:"create_unbacked_symbol"` // (its source is a stack, not named)
	FrameID        *int         `json:"frame_id"`
	FrameCompileID *int         `json:"frame_compile_id"`
	Attempt        *int         `json:"attempt"`
	Rank           *int         `json:"rank"`
	HasPayload     string       `json:"has_payload"`
}

// traceState follows one TORCH_TRACE file.
type traceState struct {
	opt       logparse.Options
	emit      func(*logparse.Record)
	lineNo    int
	strs      map[int]string
	pending   map[logparse.CompileID][]string // recompile_reasons artifacts waiting for their compilation_metrics
	pendLine  map[logparse.CompileID]int
	limitName map[logparse.CompileID]string // the limit a compile's other metrics name (2.6: bwd_compilation_metrics' fail_reason)
	// failedBwd are bwd_compilation_metrics envelopes that carry a fail_type: 2.6 logs a compile that failed before
	// it knew its direction (a RecompileError under error_on_recompile) under that key (fwdFailures)
	failedBwd []failedStage
	lastCid   logparse.CompileID     // the compile id of the last envelope that carries one (endsMidCompile),
	lastLine  int                    // and its line
	broke     map[[2]int]bool        // frame and compile ids whose compile logged a graph break (dynamo_graph_break_reason)
	dynErrs   []*logparse.Record     // the errors dynamo_error artifacts logged, in order (loggedErrors)
	frameFn   map[int]logparse.Frame // frame id -> function from dynamo_start
	breaks    int                    // dynamo_graph_break_reason artifacts seen
	restarts  []*logparse.Record     // breaks known only from restart_reasons
	rank, pid int
	version   string
	envRank   int                        // the first rank an envelope carries, -1 when none does
	metricsOf map[logparse.CompileID]int // compile ids that reached compilation_metrics: the line of the first (ShapesTraced's)
	lastOf    map[int]int                // per frame id, the highest compile index that reached compilation_metrics
	// whenOf is the glog time stamp of each envelope line read ("V1127 00:46:14.296000 …": year 0, the clock of
	// the text logs), the time of the records made of it
	whenOf map[int]time.Time
	// symbols: the file holds a create_symbol or create_unbacked_symbol event: this torch traces the symbols its
	// compiles make (shapes.go)
	symbols bool
	// ddpSplit is the last DDPOptimizer split read: the optimize_ddp_split_child events after it name its
	// submodules (ddp.go)
	ddpSplit *logparse.Record
	// the envelope being read (its payload lines follow it) and its line
	cur     *envelope
	curLine int
	payload payload
	recs    []*logparse.Record // the records made so far, in the order the whole file gives them
}

// Parse reads a TORCH_TRACE file (dedicated_log_torch_trace_*.log) and emits the same record kinds as the
// text logs, marked FromTrace. opt.Rank is used when envelopes carry no rank.
// A file is read a MB at a time into a buffer kept for the next file, each line read where it lies in it
// (Reader.Write); another reader line by line (readLines).
func Parse(r io.Reader, opt logparse.Options, emit func(*logparse.Record)) error {
	if f, ok := r.(*os.File); ok {
		t := NewReader(opt)
		err := readChunks(f, t)
		t.Close()
		for _, r := range t.st.recs {
			emit(r)
		}
		return err
	}
	st := newTraceState(opt)
	err := readLines(r, st.opt.MaxLine, st.line)
	recs := st.end()
	st.payload.release()
	for _, r := range recs {
		emit(r)
	}
	return err
}

// chunkBufs are readChunks' buffers, one a file being read (memory stays bounded whatever the file's size),
// kept for the next files; unlike a sync.Pool's, a collection does not drop them, to be made and faulted in
// again by the next file.
var chunkBufs = make(chan *[]byte, 16)

// readChunks feeds f to t to its end (a read error ends it: what was read is read, as readLines does).
func readChunks(f *os.File, t *Reader) error {
	var bp *[]byte
	select {
	case bp = <-chunkBufs:
	default:
		b := make([]byte, 1<<20)
		bp = &b
	}
	defer func() {
		select {
		case chunkBufs <- bp:
		default:
		}
	}()
	for {
		n, err := f.Read(*bp)
		if n > 0 {
			_, _ = t.Write((*bp)[:n])
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// newTraceState starts following one TORCH_TRACE file; its records are collected in recs.
func newTraceState(opt logparse.Options) *traceState {
	if opt.MaxLine <= 0 {
		opt.MaxLine = 64 << 10
	}
	st := &traceState{opt: opt, strs: map[int]string{}, pending: map[logparse.CompileID][]string{}, pendLine: map[logparse.CompileID]int{},
		limitName: map[logparse.CompileID]string{}, broke: map[[2]int]bool{}, frameFn: map[int]logparse.Frame{}, rank: opt.Rank, envRank: -1,
		lastCid: logparse.NoCompileID, metricsOf: map[logparse.CompileID]int{}, lastOf: map[int]int{}, whenOf: map[int]time.Time{}}
	st.emit = func(r *logparse.Record) { st.recs = append(st.recs, r) }
	st.payload.take()
	return st
}

// line reads one line of the file (cut: longer than opt.MaxLine, the rest not kept).
func (st *traceState) line(line []byte, cut bool) {
	st.lineNo++
	line = logparse.UnquoteTrace(line) // a pasted trace: indented or quoted
	if len(line) > 0 && line[0] == '\t' {
		if st.cur != nil && st.cur.HasPayload != "" {
			st.payload.add(line[1:])
		}
		return
	}
	st.flushEnv()
	body := line
	head, ok := logparse.ParseGlogHead(line)
	if ok {
		body = head.Body
		st.pid = head.PID
	}
	if len(body) == 0 || body[0] != '{' || cut {
		return
	}
	if st.envRank < 0 {
		st.envRank = envelopeRank(body)
	}
	if cid, ok := envelopeCID(body); ok {
		st.lastCid, st.lastLine = cid, st.lineNo
	}
	if !interesting(body) {
		return
	}
	var env envelope
	if decodeEnvelope(body, &env) != nil {
		return
	}
	st.cur, st.curLine = &env, st.lineNo
	if w := logparse.ParseWhen(head.When); !w.IsZero() {
		st.whenOf[st.curLine] = w
	}
}

// flushEnv makes the records of the envelope read last, now that its payload lines are all read.
func (st *traceState) flushEnv() {
	if st.cur != nil {
		st.event(st.cur, &st.payload, st.curLine)
	}
	st.cur = nil
	st.payload.reset()
}

// end ends the file: what only its end tells is emitted, and every record gets the file's one rank (pasted-logs.md
// §6: the envelopes' rank when one carries it, else the file name's) and its caught failures marked. It returns
// the file's records and reports its facts.
func (st *traceState) end() []*logparse.Record {
	st.flushEnv()
	st.fwdFailures()
	st.finish()
	st.shapesTraced()
	st.loggedErrors()
	st.endsMidCompile()
	// the file's rank is a rank of the run whether or not a record names it (a rank killed mid-compile, before
	// its first compilation_metrics, still says "rank": 0 in its envelopes)
	if rank := rankOr(st.envRank, st.opt.Rank); rank >= 0 && st.opt.OnRank != nil {
		st.opt.OnRank(rank)
	}
	recs := st.recs
	wentOn(recs)
	for _, r := range recs {
		if r.Rank = st.opt.Rank; st.envRank >= 0 {
			r.Rank = st.envRank
		}
	}
	if st.opt.OnFacts != nil {
		st.opt.OnFacts(st.facts())
	}
	return recs
}

// facts is what the file read so far says of the run.
func (st *traceState) facts() logparse.Facts {
	return logparse.Facts{TorchLog: st.lineNo > 0, Trace: st.lineNo > 0, TorchVersion: st.version}
}

// interesting reports whether an envelope may make a record (or fact): the lines the events read (event.go).
// Torch writes an envelope's kind as its first key, so that key is read at its fixed place (and an artifact's
// name after it) rather than the whole line searched: a kind no event reads is passed over without a search, a
// kind or shape not known here is searched for every key as before (mentions).
func interesting(b []byte) bool {
	key, rest, ok := firstKey(b)
	if !ok {
		return mentions(b)
	}
	switch key {
	case "compilation_metrics", "bwd_compilation_metrics", "compilation_metrics_runtime", "bwd_compilation_metrics_runtime",
		"str", "dynamo_start", "create_symbol", "create_unbacked_symbol", "optimize_ddp_split_graph", "optimize_ddp_split_child":
		return true
	case "artifact":
		name, _, ok := firstKey(rest) // {"artifact": {"name": …
		if !ok || name != "name" {
			return mentions(b)
		}
		name, ok = stringAt(rest[len(`{"name": `):])
		if !ok {
			return mentions(b)
		}
		switch name {
		case "dynamo_graph_break_reason", "recompile_reasons", "dynamo_error", "torch_version":
			return true
		}
		return strings.Contains(name, "_cache_") || strings.HasSuffix(name, "_code_state")
	}
	return !dullKinds[key] && mentions(b)
}

// dullKinds are the envelope kinds of real traces that no event reads (a chromium event, a graph, a tensor's
// description): most of a trace's envelopes.
var dullKinds = map[string]bool{"chromium_event": true, "describe_tensor": true, "describe_storage": true, "describe_source": true,
	"dynamo_cpp_guards_str": true, "dynamo_output_graph": true, "inductor_output_code": true, "inductor_post_grad_graph": true,
	"aot_inference_graph": true, "aot_forward_graph": true, "aot_backward_graph": true, "aot_joint_graph": true,
	"guard_added_fast": true, "guard_added": true, "dynamo_guards": true, "link": true, "expression_created": true,
	"exported_program": true}

// firstKey reads the first key of the object b starts with, as torch writes it (`{"key": `), and what follows
// it; ok is false for another shape (a key with an escape in it, spaces elsewhere).
func firstKey(b []byte) (key string, rest []byte, ok bool) {
	if len(b) < 2 || b[0] != '{' || b[1] != '"' {
		return "", nil, false
	}
	key, ok = stringAt(b[1:])
	end := 1 + len(key) + 2
	if !ok || len(b) < end+2 || b[end] != ':' || b[end+1] != ' ' {
		return "", nil, false
	}
	return key, b[end+2:], true
}

// stringAt reads the string b starts with when it holds no escape ("…"); it is no copy of b.
func stringAt(b []byte) (string, bool) {
	if len(b) < 2 || b[0] != '"' {
		return "", false
	}
	n := bytes.IndexByte(b[1:], '"')
	if n < 0 || bytes.IndexByte(b[1:1+n], '\\') >= 0 {
		return "", false
	}
	return unsafe.String(unsafe.SliceData(b[1:]), n), true
}

// mentions reports whether the envelope names one of the keys the events read anywhere.
func mentions(b []byte) bool {
	// compilation_metrics first (it covers "compilation_metrics"): found at the start of the longest lines, the
	// metrics envelopes (~40 KB), which the other keys would each be looked for in to their end
	for _, k := range [...]string{`compilation_metrics`, `"str"`, `"dynamo_graph_break_reason"`, `"recompile_reasons"`, `"dynamo_start"`, `"dynamo_error"`,
		`"torch_version"`, `_cache_`, `_code_state"`, `{"create_symbol"`, `{"create_unbacked_symbol"`, `{"optimize_ddp_split_`} {
		if bytes.Contains(b, []byte(k)) {
			return true
		}
	}
	return false
}

// readLines calls fn for every line of r; lines longer than max are cut (the rest is skipped, not kept).
func readLines(r io.Reader, max int, fn func(line []byte, cut bool)) error {
	br := bufio.NewReaderSize(r, 256<<10)
	var long []byte
	cut := false
	for {
		chunk, err := br.ReadSlice('\n')
		if len(long) == 0 && !cut && len(chunk) > 0 && chunk[0] == 0 {
			chunk = chunk[logparse.SkipNUL(chunk, 0):] // NULs before a line are no part of it (a hole: Parser.Write)
		}
		if err == bufio.ErrBufferFull {
			if len(long) < max {
				long = append(long, chunk[:min(len(chunk), max-len(long))]...)
			}
			cut = cut || len(long) >= max
			continue
		}
		line := chunk
		if len(long) > 0 || cut {
			if len(long) < max {
				long = append(long, chunk[:min(len(chunk), max-len(long))]...)
			} else {
				cut = true
			}
			line = long
		}
		line = trimEnd(line)
		if len(line) > 0 || err == nil {
			fn(line, cut)
		}
		long, cut = long[:0], false
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// rankOr is a when it is a rank (>= 0), else b.
func rankOr(a, b int) int {
	if a >= 0 {
		return a
	}
	return b
}

// payload holds the payload lines of the envelope being read: their bytes one after another (a line read where
// it lies in the read buffer is copied once, into a buffer used again for the next envelope), made strings only
// for an event that keeps or joins them.
type payload struct {
	b     []byte
	ends  []int    // where each line ends in b
	lines []string // the lines as strings (ValidString), made by strings
}

func (p *payload) add(line []byte) {
	p.b = append(p.b, line...)
	p.ends = append(p.ends, len(p.b))
}

// payloadBufs keeps the payload buffers of files read to their end for the next files (a cache artifact's
// payload line is ~75 KB: a buffer grown anew for each of 1,024 files was most of what a report of them
// allocated), as chunkBufs keeps its.
var payloadBufs = make(chan []byte, 16)

// take starts the buffer with one a file read before left.
func (p *payload) take() {
	select {
	case b := <-payloadBufs:
		p.b = b[:0]
	default:
	}
}

// release gives the buffer back: the file is read to its end.
func (p *payload) release() {
	if b := p.b; cap(b) > 0 && cap(b) <= 4<<20 {
		select {
		case payloadBufs <- b:
		default:
		}
	}
	p.b, p.lines = nil, nil
}

func (p *payload) reset() {
	p.b, p.ends, p.lines = p.b[:0], p.ends[:0], nil
}

// strings are the lines, each made valid UTF-8 (ValidString).
func (p *payload) strings() []string {
	if p.lines != nil || len(p.ends) == 0 {
		return p.lines
	}
	p.lines = make([]string, 0, len(p.ends))
	all, valid := "", utf8.Valid(p.b)
	if valid {
		all = string(p.b) // one string the lines are parts of
	}
	from := 0
	for _, end := range p.ends {
		if valid {
			p.lines = append(p.lines, all[from:end])
		} else {
			p.lines = append(p.lines, logparse.ValidString(p.b[from:end]))
		}
		from = end
	}
	return p.lines
}

// single is the one line's bytes when there is one line: no copy, valid until the next reset.
func (p *payload) single() (string, bool) {
	if len(p.ends) != 1 || len(p.b) == 0 {
		return "", len(p.ends) == 1
	}
	return unsafe.String(&p.b[0], len(p.b)), true
}

func (p *payload) clone() payload {
	return payload{b: slices.Clone(p.b), ends: slices.Clone(p.ends), lines: slices.Clone(p.lines)}
}
