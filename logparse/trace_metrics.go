package logparse

import (
	"strings"
	"time"
)

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
	} else if m.FailType != nil && *m.FailType == "Unsupported" && st.broke[[2]int{cid.Frame, cid.Compile}] {
		// the compile logged the graph break it failed at: Dynamo skipped the frame after it (a break in a loop,
		// one it cannot resume from) and ran it eager; the break is the record, no exception reached the program
		// (under fullgraph the break raises and no dynamo_graph_break_reason is logged)
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
