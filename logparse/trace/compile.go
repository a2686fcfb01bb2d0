package trace

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// metricTimes are the compilation_metrics time fields (embedded in traceMetrics).
type metricTimes struct {
	DynamoUS      *float64 `json:"dynamo_cumulative_compile_time_us"`
	BackendUS     *float64 `json:"aot_autograd_cumulative_compile_time_us"`
	BackendS      *float64 `json:"backend_compile_time_s"`
	InductorUS    *float64 `json:"inductor_cumulative_compile_time_us"`
	InductorS     *float64 `json:"inductor_compile_time_s"`
	CodeGenUS     *float64 `json:"inductor_code_gen_cumulative_compile_time_us"`
	CodeGenS      *float64 `json:"code_gen_time_s"`
	TritonUS      *float64 `json:"triton_compile_time_us"`
	AutotuneUS    *float64 `json:"compile_time_autotune_time_us"`
	BackwardUS    *float64 `json:"backward_cumulative_compile_time_us"`
	RtAutotuneUS  *float64 `json:"runtime_triton_autotune_time_us"`
	RtCudagraphUS *float64 `json:"runtime_cudagraphify_time_us"`
	RemoteFXGetUS *float64 `json:"remote_fx_graph_cache_get_time_us"`
	PGOGetUS      *float64 `json:"pgo_get_remote_code_state_time_us"`
}

func usOr(us, s *float64) *float64 {
	if us != nil {
		v := *us / 1e6
		return &v
	}
	return s
}

func sumOpt(a, b *float64) *float64 {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	v := *a + *b
	return &v
}

func (m *traceMetrics) times() logparse.CompileTimes {
	t := m.metricTimes
	return logparse.CompileTimes{
		Frame: usOr(t.DynamoUS, m.FrameSeconds), Backend: usOr(t.BackendUS, t.BackendS),
		Inductor: usOr(t.InductorUS, t.InductorS), CodeGen: usOr(t.CodeGenUS, t.CodeGenS),
		Triton: usOr(t.TritonUS, nil), Autotune: usOr(t.AutotuneUS, nil), Backward: usOr(t.BackwardUS, nil),
		RemoteGet:       sumOpt(usOr(t.RemoteFXGetUS, nil), usOr(t.PGOGetUS, nil)),
		RuntimeAutotune: usOr(t.RtAutotuneUS, nil), RuntimeCudagraphify: usOr(t.RtCudagraphUS, nil),
	}
}

// stageMetrics emits the KindCompile record of a bwd_compilation_metrics or *_runtime envelope.
func (st *traceState) stageMetrics(env *envelope, m *traceMetrics, stage logparse.CompileStage, line int) {
	r := st.record(env, line, logparse.KindCompile)
	if cid, ok := logparse.ParseCompileID(m.CompileID); ok {
		r.CompileID = cid
		if m.FailReason != nil && isLimitReason(*m.FailReason) { // 2.6: "cache_size_limit reached", for the
			// compile refused at the limit whose recompile reasons finish() reads
			if name, _ := limitOfReason(*m.FailReason); name != "" {
				st.limitName[cid] = name
			}
		}
	}
	r.Era = st.era()
	r.Compile = &logparse.FrameCompile{Function: m.CoName, File: m.CoFilename, Line: m.CoFirstLineNo, GraphOps: -1,
		Failed: m.FailType != nil && *m.FailType != "", Stage: stage, Times: m.times()}
	st.emit(r)
	if stage == logparse.StageBackward && r.Compile.Failed && r.CompileID.Valid() {
		e := *env
		e.Metrics, e.BwdMetrics = m, nil
		st.failedBwd = append(st.failedBwd, failedStage{env: e, line: line})
	}
}

// failedStage is a failed bwd_compilation_metrics envelope kept for the end of the file (fwdFailures).
type failedStage struct {
	env  envelope
	line int
}

// fwdFailures reads, at the end of the file, a failed bwd_compilation_metrics of a compile that has no
// compilation_metrics as that compile's own metrics: 2.6 names the envelope by is_forward, which a compile that
// fails before Dynamo knows it (a RecompileError raised by error_on_recompile as the recompile starts: every
// frame field null) never set. Its failure is the compile's, and the compile ended there: not a trace cut
// mid-compile, nor a compile refused at a limit. A real backward compile's failure keeps to its stage: its forward
// reached compilation_metrics.
func (st *traceState) fwdFailures() {
	for _, f := range st.failedBwd {
		if cid, _ := logparse.ParseCompileID(f.env.Metrics.CompileID); !st.finished(cid) {
			st.metrics(&f.env, f.line)
		}
	}
}

// cacheArtifacts maps TORCH_TRACE artifact names to (cache, state); "" state: read cache_state from the payload.
var cacheArtifacts = map[string][2]string{
	"fx_graph_cache_hit": {logparse.CacheFXGraph, logparse.CacheHit}, "fx_graph_cache_miss": {logparse.CacheFXGraph, logparse.CacheMiss},
	"fx_graph_cache_bypass": {logparse.CacheFXGraph, logparse.CacheBypass}, "fx_graph_cache_hash": {logparse.CacheFXGraph, ""},
	"aotautograd_cache_hit": {logparse.CacheAOT, logparse.CacheHit}, "aotautograd_cache_miss": {logparse.CacheAOT, logparse.CacheMiss},
	"aotautograd_cache_bypass": {logparse.CacheAOT, logparse.CacheBypass}, "aotautograd_cache_hash": {logparse.CacheAOT, ""},
	"get_local_code_state": {logparse.CachePGO, logparse.CacheHit}, "get_remote_code_state": {logparse.CachePGO, logparse.CacheHit},
	"put_local_code_state": {logparse.CachePGO, logparse.CacheWrite}, "put_remote_code_state": {logparse.CachePGO, logparse.CacheWrite},
}

type cachePayload struct {
	State    string `json:"cache_state"`
	Reason   string `json:"cache_bypass_reason"`
	Detailed string `json:"cache_status_detailed"`
	Key      string `json:"key"`
}

var (
	payloadState  = regexp.MustCompile(`"cache_state": ?"([a-z_]+)"`)
	payloadReason = regexp.MustCompile(`"cache_bypass_reason": ?"((?:[^"\\]|\\.)*)"`)
)

// cacheArtifact emits the KindCache record of a cache artifact. A payload cut at the line limit still gives
// its state and bypass reason.
func (st *traceState) cacheArtifact(env *envelope, name string, pl *payload, line int) {
	cs := cacheArtifacts[name]
	ev := &logparse.CacheEvent{Cache: cs[0], State: cs[1]}
	if cs[0] != logparse.CachePGO {
		var p cachePayload
		var valid, typeErr bool
		var ascii bool
		if raw, ok := pl.single(); ok { // json.dumps' one line: read for the few fields, never its key's components
			// where the members read are ASCII, the line's bytes read as its text (ValidString) reads
			if p, valid, typeErr, ascii = cacheFields(raw); !ascii {
				p, valid, typeErr, _ = cacheFields(pl.strings()[0])
			}
		} else {
			valid = json.Unmarshal([]byte(strings.Join(pl.strings(), "\n")), &p) == nil
		}
		if !valid || typeErr {
			text := strings.Join(pl.strings(), "\n")
			if m := payloadState.FindStringSubmatch(text); m != nil {
				p.State = m[1]
			}
			if m := payloadReason.FindStringSubmatch(text); m != nil {
				_ = json.Unmarshal([]byte(`"`+m[1]+`"`), &p.Reason)
			}
		}
		if ev.State == "" {
			ev.State = p.State
		}
		ev.Reason, ev.Detailed, ev.Key = p.Reason, p.Detailed, p.Key
	}
	switch ev.State {
	case logparse.CacheHit, logparse.CacheMiss, logparse.CacheBypass, logparse.CacheWrite:
	default:
		return // "disabled" and unknown states are no lookup
	}
	r := st.record(env, line, logparse.KindCache)
	r.Artifact, r.Era, r.Cache = name, st.era(), ev
	st.emit(r)
}
