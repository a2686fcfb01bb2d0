package trace

import (
	"encoding/json"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

func (st *traceState) event(env *envelope, pl *payload, line int) {
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
		if unmarshalString(env.Str[0], &name) == nil && unmarshalInt(env.Str[1], &n) == nil {
			st.strs[n] = name
		}
	case env.DynamoStart != nil && env.FrameID != nil && len(env.DynamoStart.Stack) > 0:
		top := env.DynamoStart.Stack[len(env.DynamoStart.Stack)-1]
		st.frameFn[*env.FrameID] = logparse.Frame{File: st.filename(top.Filename), Line: top.Line, Func: top.Name}
	case env.Artifact != nil && env.Artifact.Name == "dynamo_graph_break_reason":
		st.breaks++
		r := st.record(env, line, logparse.KindGraphBreak)
		st.broke[[2]int{r.CompileID.Frame, r.CompileID.Compile}] = true
		r.Lines = append([]string(nil), pl.strings()...)
		r.Break = logparse.ParseBreak(r.Lines)
		r.Era = st.era()
		st.emit(r)
	case env.Artifact != nil && env.Artifact.Name == "recompile_reasons":
		r := st.record(env, line, logparse.KindOther)
		var reasons []string
		if payload := pl.strings(); json.Unmarshal([]byte(strings.Join(payload, "\n")), &reasons) != nil {
			reasons = payload
		}
		if _, done := st.metricsOf[r.CompileID]; !done { // else a copy of an artifact of a compile already complete
			st.pending[r.CompileID] = reasons
			st.pendLine[r.CompileID] = line
		}
	case env.Artifact != nil && env.Artifact.Name == "dynamo_error" && len(pl.ends) > 0:
		// the traceback Dynamo logged of the error a compile failed with; its compilation_metrics (fail_type)
		// is the record where they come, this one where the trace ends before them (loggedErrors)
		r := st.record(env, line, logparse.KindException)
		r.Error = logparse.ParseTraceback(pl.strings())
		r.Era = st.era()
		if r.Error.Class != "" {
			st.dynErrs = append(st.dynErrs, r)
		}
	case env.Artifact != nil && env.Artifact.Name == "torch_version":
		var v struct {
			Version string `json:"pytorch_version"`
		}
		if json.Unmarshal([]byte(strings.Join(pl.strings(), "\n")), &v) == nil {
			st.version = v.Version
		}
	case env.DDPSplitGraph != nil:
		st.ddpSplitGraph(env, pl.strings(), line)
	case env.DDPSplitChild != nil:
		st.ddpSplitChild(env)
	case env.CreateSymbol != nil || env.CreateUnbacked != nil:
		st.symbol(env, line)
	case env.Metrics != nil:
		st.metrics(env, line)
	case env.BwdMetrics != nil:
		st.stageMetrics(env, env.BwdMetrics, logparse.StageBackward, line)
	case env.RtMetrics != nil:
		st.stageMetrics(env, env.RtMetrics, logparse.StageRuntime, line)
	case env.BwdRtMetrics != nil:
		st.stageMetrics(env, env.BwdRtMetrics, logparse.StageRuntime, line)
	case env.Artifact != nil && cacheArtifacts[env.Artifact.Name] != [2]string{}:
		st.cacheArtifact(env, env.Artifact.Name, pl, line)
	}
}

func (st *traceState) record(env *envelope, line int, kind logparse.Kind) *logparse.Record {
	r := &logparse.Record{Kind: kind, Source: logparse.FromTrace, Input: st.opt.Input, Stream: st.opt.Stream, Rank: st.rank,
		LocalRank: -1, Level: 'V', PID: st.pid, CompileID: logparse.NoCompileID, FirstLine: line, LastLine: line, Time: st.whenOf[line]}
	if env != nil {
		if env.Rank != nil {
			r.Rank = *env.Rank
			st.rank = *env.Rank
		}
		r.CompileID = env.compileID()
	}
	return r
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

// era is the era of the torch version the trace states (ParseTorchVersion), unknown when it states none.
func (st *traceState) era() logparse.Era {
	r, ok := logparse.ParseTorchVersion(st.version)
	if !ok {
		return logparse.Era{}
	}
	return r.Era()
}
