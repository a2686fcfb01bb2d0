package trace

import (
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/logparse"
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

func (st *traceState) metrics(env *envelope, line int) {
	m := env.Metrics
	if st.version == "" && m.PytorchVersion != "" {
		st.version = m.PytorchVersion
	}
	cid, ok := logparse.ParseCompileID(m.CompileID)
	if !ok {
		// older traces: the envelope carries the id
		if env.FrameID == nil || env.FrameCompileID == nil {
			return
		}
		cid = logparse.CompileID{Autograd: -1, Frame: *env.FrameID, Compile: *env.FrameCompileID}
	}
	mk := func(kind logparse.Kind) *logparse.Record {
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
	fn := logparse.Frame{Func: m.CoName, File: m.CoFilename, Line: m.CoFirstLineNo}
	if fn.Func == "" && fn.File == "" { // 2.14's compile refused at the recompile limit names no code: its frame's
		fn = st.frameFn[cid.Frame]
	}
	fc := mk(logparse.KindCompile)
	fc.Compile = &logparse.FrameCompile{Function: fn.Func, File: fn.File, Line: fn.Line, GraphOps: -1,
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
		r := mk(logparse.KindRecompile)
		r.Recompile = &logparse.Recompile{Function: fn.Func, File: fn.File, Line: fn.Line, Failures: failuresOf(reasons)}
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
		r := mk(logparse.KindException)
		cls := logparse.QualifyClass(*m.FailType)
		r.Error = &logparse.CompileError{Class: cls, Frame: logparse.Frame{File: m.CoFilename, Line: m.CoFirstLineNo, Func: m.CoName}}
		if m.FailReason != nil {
			r.Error.Message = *m.FailReason
		}
		if logparse.IsCompileErrorClass(cls) {
			r.Kind = logparse.KindCompileError
		}
		st.emit(r)
	}
	if m.CudagraphSkipReason != nil && *m.CudagraphSkipReason != "" {
		r := mk(logparse.KindCudagraphSkip)
		r.Skip = logparse.ParseCudagraphSkip(*m.CudagraphSkipReason)
		st.emit(r)
	}
	for _, reason := range m.RestartReasons {
		r := mk(logparse.KindGraphBreak)
		r.Break = &logparse.GraphBreak{Reason: strings.Trim(reason, "'\""), File: m.CoFilename}
		st.restarts = append(st.restarts, r)
	}
}

// failuresOf turns "0/0: guard text" reasons (possibly with continuation lines) into guard failures.
func failuresOf(reasons []string) []logparse.GuardFailure {
	var out []logparse.GuardFailure
	for _, s := range reasons {
		for _, l := range strings.Split(s, "\n") {
			t := strings.TrimSpace(l)
			if t == "" {
				continue
			}
			if cid, guard, ok := logparse.SplitFailureID(t); ok {
				out = append(out, logparse.GuardFailure{CompileID: cid, Guard: guard})
			} else if n := len(out); n > 0 {
				out[n-1].Extra = logparse.JoinExtra(out[n-1].Extra, t)
			} else {
				out = append(out, logparse.GuardFailure{Guard: t})
			}
		}
	}
	return out
}

// wentOn marks caught the compile failures of a trace file (one process) that a later compile follows: the
// process compiled again after it, so it did not die of it (the program caught it, or Dynamo fell back).
func wentOn(recs []*logparse.Record) {
	last := -1
	for i, r := range recs {
		if r.Kind == logparse.KindCompile {
			last = i
		}
	}
	for _, r := range recs[:max(last, 0)] {
		if r.Error != nil && (r.Kind == logparse.KindCompileError || r.Kind == logparse.KindRuntimeError) {
			r.Error.Caught, r.Kind = true, logparse.KindException // as a logged traceback the process lived on after (caught.go)
		}
	}
}
