package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"time"

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
	lastCid   logparse.CompileID            // the compile id of the last envelope that carries one (endsMidCompile),
	lastLine  int                           // and its line
	broke     map[[2]int]bool               // frame and compile ids whose compile logged a graph break (dynamo_graph_break_reason)
	dynErrs   []*logparse.Record            // the errors dynamo_error artifacts logged, in order (loggedErrors)
	frameFn   map[int]logparse.Frame        // frame id -> function from dynamo_start
	breaks    int                           // dynamo_graph_break_reason artifacts seen
	restarts  []*logparse.Record            // breaks known only from restart_reasons
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
	payload []string
	recs    []*logparse.Record // the records made so far, in the order the whole file gives them
}

// Parse reads a TORCH_TRACE file (dedicated_log_torch_trace_*.log) and emits the same record kinds as the
// text logs, marked FromTrace. opt.Rank is used when envelopes carry no rank.
func Parse(r io.Reader, opt logparse.Options, emit func(*logparse.Record)) error {
	st := newTraceState(opt)
	err := readLines(r, st.opt.MaxLine, st.line)
	for _, r := range st.end() {
		emit(r)
	}
	return err
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
	return st
}

// line reads one line of the file (cut: longer than opt.MaxLine, the rest not kept).
func (st *traceState) line(line []byte, cut bool) {
	st.lineNo++
	line = logparse.UnquoteTrace(line) // a pasted trace: indented or quoted
	if len(line) > 0 && line[0] == '\t' {
		if st.cur != nil && st.cur.HasPayload != "" {
			st.payload = append(st.payload, logparse.ValidString(line[1:]))
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
		st.event(st.cur, st.payload, st.curLine)
	}
	st.cur, st.payload = nil, st.payload[:0]
}

// end ends the file: what only its end tells is emitted, and every record gets the file's one rank (pasted-logs.md
// §6: the envelopes' rank when one carries it, else the file name's) and its caught failures marked. It returns
// the file's records and reports its facts.
func (st *traceState) end() []*logparse.Record {
	st.flushEnv()
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

func interesting(b []byte) bool {
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
		line = bytes.TrimRight(line, "\r\n")
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
