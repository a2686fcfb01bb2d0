package logparse

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"time"
)

// envelope is the JSON object on a TORCH_TRACE line (only the fields torchtriage uses).
type envelope struct {
	Str     []json.RawMessage `json:"str"`
	Metrics *traceMetrics     `json:"compilation_metrics"`
	// bwd_compilation_metrics, compilation_metrics_runtime, bwd_compilation_metrics_runtime (trace_compile.go)
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
	DDPSplitGraph *struct{} `json:"optimize_ddp_split_graph"` // trace_ddp.go
	DDPSplitChild *struct {
		Name string `json:"name"`
	} `json:"optimize_ddp_split_child"`
	CreateSymbol   *traceSymbol `json:"create_symbol"`          // trace_shapes.go
	CreateUnbacked *traceSymbol `json:"create_unbacked_symbol"` // (its source is a stack, not named)
	FrameID        *int         `json:"frame_id"`
	FrameCompileID *int         `json:"frame_compile_id"`
	Attempt        *int         `json:"attempt"`
	Rank           *int         `json:"rank"`
	HasPayload     string       `json:"has_payload"`
}

type traceMetrics struct {
	CompileID           string   `json:"compile_id"`
	CoName              string   `json:"co_name"`
	CoFilename          string   `json:"co_filename"`
	CoFirstLineNo       int      `json:"co_firstlineno"`
	FailType            *string  `json:"fail_type"`
	FailReason          *string  `json:"fail_reason"`
	RestartReasons      []string `json:"restart_reasons"`
	RecompileReason     *string  `json:"recompile_reason"`
	CudagraphSkipReason *string  `json:"cudagraph_skip_reason"`
	FrameSeconds        *float64 `json:"entire_frame_compile_time_s"`
	GraphOps            *int     `json:"graph_op_count"`
	StartTime           *float64 `json:"start_time"`
	PytorchVersion      string   `json:"pytorch_version"` // 2.11+
	metricTimes
}

var dynamoExc = map[string]bool{"Unsupported": true, "BackendCompilerFailed": true, "FailOnRecompileLimitHit": true,
	"RecompileError": true, "UserError": true, "TorchRuntimeError": true, "InternalTorchDynamoError": true,
	"ObservedException": true, "SkipFrame": true, "UncapturedHigherOrderOpError": true, "RecompileLimitExceeded": true,
	"CacheLimitExceeded": true, "TorchDynamoException": true, "ArgsMismatchError": true, "ResetRequired": true}

// inductorExc are the torch._inductor.exc classes a trace's fail_type names without their module.
var inductorExc = map[string]bool{"InductorError": true, "LoweringException": true, "CppCompileError": true,
	"CUDACompileError": true, "InvalidCxxCompiler": true, "MissingOperatorWithDecomp": true,
	"MissingOperatorWithoutDecomp": true, "TritonMissing": true, "GPUTooOldForTriton": true}

// traceState follows one TORCH_TRACE file.
type traceState struct {
	opt       Options
	emit      func(*Record)
	lineNo    int
	strs      map[int]string
	pending   map[CompileID][]string // recompile_reasons artifacts waiting for their compilation_metrics
	pendLine  map[CompileID]int
	frameFn   map[int]Frame // frame id -> function from dynamo_start
	breaks    int           // dynamo_graph_break_reason artifacts seen
	restarts  []*Record     // breaks known only from restart_reasons
	rank, pid int
	version   string
	envRank   int               // the first rank an envelope carries, -1 when none does
	metricsOf map[CompileID]int // compile ids that reached compilation_metrics: the line of the first (ShapesTraced's)
	lastOf    map[int]int       // per frame id, the highest compile index that reached compilation_metrics
	// whenOf is the glog time stamp of each envelope line read ("V1127 00:46:14.296000 …": year 0, the clock of
	// the text logs), the time of the records made of it
	whenOf map[int]time.Time
	// symbols: the file holds a create_symbol or create_unbacked_symbol event: this torch traces the symbols its
	// compiles make (trace_shapes.go)
	symbols bool
	// ddpSplit is the last DDPOptimizer split read: the optimize_ddp_split_child events after it name its
	// submodules (trace_ddp.go)
	ddpSplit *Record
}

// wentOn marks caught the compile failures of a trace file (one process) that a later compile follows: the
// process compiled again after it, so it did not die of it (the program caught it, or Dynamo fell back).
func wentOn(recs []*Record) {
	last := -1
	for i, r := range recs {
		if r.Kind == KindCompile {
			last = i
		}
	}
	for _, r := range recs[:max(last, 0)] {
		if r.Error != nil && (r.Kind == KindCompileError || r.Kind == KindRuntimeError) {
			r.Error.Caught, r.Kind = true, KindException // as a logged traceback the process lived on after (caught.go)
		}
	}
}

// ParseTrace reads a TORCH_TRACE file (dedicated_log_torch_trace_*.log) and emits the same record kinds as the
// text logs, marked FromTrace. opt.Rank is used when envelopes carry no rank.
func ParseTrace(r io.Reader, opt Options, emit func(*Record)) error {
	if opt.MaxLine <= 0 {
		opt.MaxLine = 64 << 10
	}
	// One file, one rank (pasted-logs.md §6): the envelopes' rank when one carries it, else the file name's.
	var recs []*Record
	st := &traceState{opt: opt, emit: func(r *Record) { recs = append(recs, r) }, strs: map[int]string{},
		pending: map[CompileID][]string{}, pendLine: map[CompileID]int{}, frameFn: map[int]Frame{}, rank: opt.Rank,
		envRank: -1, metricsOf: map[CompileID]int{}, lastOf: map[int]int{}, whenOf: map[int]time.Time{}}
	defer func() {
		wentOn(recs)
		for _, r := range recs {
			if r.Rank = opt.Rank; st.envRank >= 0 {
				r.Rank = st.envRank
			}
			emit(r)
		}
	}()
	var cur *envelope
	var curLine int
	var payload []string
	flushEnv := func() {
		if cur != nil {
			st.event(cur, payload, curLine)
		}
		cur, payload = nil, payload[:0]
	}
	err := readLines(r, opt.MaxLine, func(line []byte, cut bool) {
		st.lineNo++
		if len(line) > 0 && line[0] == '\t' {
			if cur != nil && cur.HasPayload != "" {
				payload = append(payload, validString(line[1:]))
			}
			return
		}
		flushEnv()
		var li lineInfo
		li.cid = NoCompileID
		body := line
		if parseGlog(line, &li) {
			body = li.body
			st.pid = li.pid
		}
		if len(body) == 0 || body[0] != '{' || cut {
			return
		}
		if st.envRank < 0 {
			st.envRank = envelopeRank(body)
		}
		if !interesting(body) {
			return
		}
		var env envelope
		if json.Unmarshal(body, &env) != nil {
			return
		}
		cur, curLine = &env, st.lineNo
		if w := parseWhen(li.when); !w.IsZero() {
			st.whenOf[curLine] = w
		}
	})
	flushEnv()
	st.finish()
	st.shapesTraced()
	if opt.OnFacts != nil {
		opt.OnFacts(Facts{TorchLog: st.lineNo > 0, Trace: st.lineNo > 0, TorchVersion: st.version})
	}
	return err
}

func interesting(b []byte) bool {
	for _, k := range [...]string{`"str"`, `"compilation_metrics"`, `"dynamo_graph_break_reason"`, `"recompile_reasons"`, `"dynamo_start"`, `"torch_version"`,
		`compilation_metrics`, `_cache_`, `_code_state"`, `{"create_symbol"`, `{"create_unbacked_symbol"`,
		`{"optimize_ddp_split_`} {
		if bytes.Contains(b, []byte(k)) {
			return true
		}
	}
	return false
}

func (st *traceState) record(env *envelope, line int, kind Kind) *Record {
	r := &Record{Kind: kind, Source: FromTrace, Input: st.opt.Input, Stream: st.opt.Stream, Rank: st.rank,
		LocalRank: -1, Level: 'V', PID: st.pid, CompileID: NoCompileID, FirstLine: line, LastLine: line, Time: st.whenOf[line]}
	if env != nil {
		if env.Rank != nil {
			r.Rank = *env.Rank
			st.rank = *env.Rank
		}
		r.CompileID = env.compileID()
	}
	return r
}

func (st *traceState) event(env *envelope, payload []string, line int) {
	if env.Rank != nil {
		st.rank = *env.Rank
		if st.envRank < 0 {
			st.envRank = *env.Rank
		}
	}
	switch {
	case len(env.Str) == 2:
		var name string
		var n int
		if json.Unmarshal(env.Str[0], &name) == nil && json.Unmarshal(env.Str[1], &n) == nil {
			st.strs[n] = name
		}
	case env.DynamoStart != nil && env.FrameID != nil && len(env.DynamoStart.Stack) > 0:
		top := env.DynamoStart.Stack[len(env.DynamoStart.Stack)-1]
		st.frameFn[*env.FrameID] = Frame{File: st.filename(top.Filename), Line: top.Line, Func: top.Name}
	case env.Artifact != nil && env.Artifact.Name == "dynamo_graph_break_reason":
		st.breaks++
		r := st.record(env, line, KindGraphBreak)
		r.Lines = append([]string(nil), payload...)
		r.Break = parseBreak(r.Lines)
		r.Era = st.era()
		st.emit(r)
	case env.Artifact != nil && env.Artifact.Name == "recompile_reasons":
		r := st.record(env, line, KindOther)
		var reasons []string
		if json.Unmarshal([]byte(strings.Join(payload, "\n")), &reasons) != nil {
			reasons = payload
		}
		if _, done := st.metricsOf[r.CompileID]; !done { // else a copy of an artifact of a compile already complete
			st.pending[r.CompileID] = reasons
			st.pendLine[r.CompileID] = line
		}
	case env.Artifact != nil && env.Artifact.Name == "torch_version":
		var v struct {
			Version string `json:"pytorch_version"`
		}
		if json.Unmarshal([]byte(strings.Join(payload, "\n")), &v) == nil {
			st.version = v.Version
		}
	case env.DDPSplitGraph != nil:
		st.ddpSplitGraph(env, payload, line)
	case env.DDPSplitChild != nil:
		st.ddpSplitChild(env)
	case env.CreateSymbol != nil || env.CreateUnbacked != nil:
		st.symbol(env, line)
	case env.Metrics != nil:
		st.metrics(env, line)
	case env.BwdMetrics != nil:
		st.stageMetrics(env, env.BwdMetrics, StageBackward, line)
	case env.RtMetrics != nil:
		st.stageMetrics(env, env.RtMetrics, StageRuntime, line)
	case env.BwdRtMetrics != nil:
		st.stageMetrics(env, env.BwdRtMetrics, StageRuntime, line)
	case env.Artifact != nil && cacheArtifacts[env.Artifact.Name] != [2]string{}:
		st.cacheArtifact(env, env.Artifact.Name, payload, line)
	}
}

func (st *traceState) filename(raw json.RawMessage) string {
	var n int
	if json.Unmarshal(raw, &n) == nil {
		return st.strs[n]
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func (st *traceState) metrics(env *envelope, line int) {
	m := env.Metrics
	if st.version == "" && m.PytorchVersion != "" {
		st.version = m.PytorchVersion
	}
	cid, ok := parseCompileID([]byte(m.CompileID))
	if !ok {
		// older traces: the envelope carries the id
		if env.FrameID == nil || env.FrameCompileID == nil {
			return
		}
		cid = CompileID{Autograd: -1, Frame: *env.FrameID, Compile: *env.FrameCompileID}
	}
	mk := func(kind Kind) *Record {
		r := st.record(env, line, kind)
		r.CompileID = cid
		r.Era = st.era()
		return r
	}
	if _, ok := st.metricsOf[cid]; !ok {
		st.metricsOf[cid] = line
	}
	if last, ok := st.lastOf[cid.Frame]; !ok || cid.Compile > last {
		st.lastOf[cid.Frame] = cid.Compile
	}
	fn := Frame{Func: m.CoName, File: m.CoFilename, Line: m.CoFirstLineNo}
	if fn.Func == "" && fn.File == "" { // 2.14's compile refused at the recompile limit names no code: its frame's
		fn = st.frameFn[cid.Frame]
	}
	fc := mk(KindCompile)
	fc.Compile = &FrameCompile{Function: fn.Func, File: fn.File, Line: fn.Line, GraphOps: -1,
		Failed: m.FailType != nil && *m.FailType != "", Times: m.times()}
	if m.FrameSeconds != nil {
		fc.Compile.Seconds = *m.FrameSeconds
	}
	if m.GraphOps != nil {
		fc.Compile.GraphOps = *m.GraphOps
	}
	if m.StartTime != nil && fc.Time.IsZero() { // a line without glog prefix: the compile's start, on the Unix clock
		sec := int64(*m.StartTime)
		fc.Time = time.Unix(sec, int64((*m.StartTime-float64(sec))*1e9)).UTC()
	}
	st.emit(fc)
	reasons, hadPending := st.pending[cid]
	delete(st.pending, cid)
	if m.RecompileReason != nil && *m.RecompileReason != "" {
		reasons, hadPending = strings.Split(*m.RecompileReason, "\n"), true
	}
	if hadPending {
		r := mk(KindRecompile)
		r.Recompile = &Recompile{Function: fn.Func, File: fn.File, Line: fn.Line, Failures: failuresOf(reasons)}
		st.emit(r)
	}
	if m.FailReason != nil && isLimitReason(*m.FailReason) {
		// 2.14: the compile refused at the recompile limit (the frame falls back to eager)
		lr := st.limitRecord(cid, reasons, line)
		lr.Limit.Limit, lr.Limit.Value = limitOfReason(*m.FailReason)
		st.emit(lr)
	} else if m.FailType != nil && *m.FailType != "" {
		r := mk(KindException)
		cls := *m.FailType
		if dynamoExc[cls] {
			cls = "torch._dynamo.exc." + cls
		} else if inductorExc[cls] {
			cls = "torch._inductor.exc." + cls
		}
		r.Error = &CompileError{Class: cls, Frame: Frame{File: m.CoFilename, Line: m.CoFirstLineNo, Func: m.CoName}}
		if m.FailReason != nil {
			r.Error.Message = *m.FailReason
		}
		if isCompileErrorClass(cls) {
			r.Kind = KindCompileError
		}
		st.emit(r)
	}
	if m.CudagraphSkipReason != nil && *m.CudagraphSkipReason != "" {
		r := mk(KindCudagraphSkip)
		r.Skip = parseSkip(*m.CudagraphSkipReason, nil)
		st.emit(r)
	}
	for _, reason := range m.RestartReasons {
		r := mk(KindGraphBreak)
		r.Break = &GraphBreak{Reason: strings.Trim(reason, "'\""), File: m.CoFilename}
		st.restarts = append(st.restarts, r)
	}
}

// failuresOf turns "0/0: guard text" reasons (possibly with continuation lines) into guard failures.
func failuresOf(reasons []string) []GuardFailure {
	var out []GuardFailure
	for _, s := range reasons {
		for _, l := range strings.Split(s, "\n") {
			t := strings.TrimSpace(l)
			if t == "" {
				continue
			}
			if cid, guard, ok := splitFailureID(t); ok {
				out = append(out, GuardFailure{CompileID: cid, Guard: guard})
			} else if n := len(out); n > 0 {
				out[n-1].Extra = joinExtra(out[n-1].Extra, t)
			} else {
				out = append(out, GuardFailure{Guard: t})
			}
		}
	}
	return out
}

// era is the era of the torch version the trace states (ParseTorchVersion), unknown when it states none.
func (st *traceState) era() Era {
	r, ok := ParseTorchVersion(st.version)
	if !ok {
		return Era{}
	}
	return r.Era()
}

// readLines calls fn for every line of r; lines longer than max are cut (the rest is skipped, not kept).
func readLines(r io.Reader, max int, fn func(line []byte, cut bool)) error {
	br := bufio.NewReaderSize(r, 256<<10)
	var long []byte
	cut := false
	for {
		chunk, err := br.ReadSlice('\n')
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
