package logparse

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// Compile time and compile caches: the compilation_metrics phase spans (frame, lazy backward, run-time work),
// the cache artifacts of TORCH_TRACE and the cache lines of the text log.

// CompileStage says what a KindCompile record measured.
type CompileStage uint8

// Compile stages.
const (
	StageFrame    CompileStage = iota // compilation_metrics: one Dynamo frame compile (forward or inference graph)
	StageBackward                     // bwd_compilation_metrics: the lazy backward compile at the first backward()
	StageRuntime                      // compilation_metrics_runtime / bwd_…_runtime: run-time work charged to a compile
)

var stageNames = [...]string{"frame", "backward", "runtime"}

func (s CompileStage) String() string {
	if int(s) < len(stageNames) {
		return stageNames[s]
	}
	return "unknown"
}

// CompileTimes are the nested dynamo_timed spans of one compile record, in seconds; nil = the record does not
// give it. Frame ⊃ Backend ⊃ Inductor ⊃ CodeGen ⊃ Triton; Autotune is inside Inductor.
type CompileTimes struct {
	Frame    *float64 // dynamo_cumulative_compile_time_us (entire_frame_compile_time_s where that is all there is)
	Backend  *float64 // aot_autograd_cumulative_compile_time_us / backend_compile_time_s: AOTAutograd + Inductor
	Inductor *float64 // inductor_cumulative_compile_time_us / inductor_compile_time_s
	CodeGen  *float64 // inductor_code_gen_cumulative_compile_time_us / code_gen_time_s
	Triton   *float64 // triton_compile_time_us
	Autotune *float64 // compile_time_autotune_time_us
	Backward *float64 // backward_cumulative_compile_time_us (bwd_compilation_metrics)
	// RemoteGet is the time spent reading remote caches (remote FX graph get + remote PGO get), inside the above.
	RemoteGet           *float64
	RuntimeAutotune     *float64 // runtime_triton_autotune_time_us (*_runtime records)
	RuntimeCudagraphify *float64 // runtime_cudagraphify_time_us (*_runtime records)
}

// Cache names of CacheEvent.Cache.
const (
	CacheFXGraph = "fx_graph"
	CacheAOT     = "aot_autograd"
	CachePGO     = "pgo"
)

// Cache states of CacheEvent.State.
const (
	CacheHit    = "hit"
	CacheMiss   = "miss"
	CacheBypass = "bypass"
	CacheWrite  = "write" // PGO: the code state was written
	// CacheDefault: PGO's "get_code_state using default": a lookup that found nothing, unless a hit of the same
	// process came just before it (2.11+ print it after a hit too; compile-time-and-caches.md §3.3)
	CacheDefault = "default"
	// CacheDisabled: PGO's "put_code_state: local cache disabled" (2.6: local PGO is off): the lookup before it
	// could find nothing, so its "using default" was no miss
	CacheDisabled = "disabled"
)

// CacheEvent is the payload of a KindCache record: one lookup of one compile cache.
type CacheEvent struct {
	Cache    string // CacheFXGraph, CacheAOT or CachePGO
	State    string // CacheHit, CacheMiss, CacheBypass or CacheWrite
	Reason   string // bypass reason ("Cannot cache a graph with freezing enabled")
	Detailed string // 2.11+ cache_status_detailed: hit | guard_miss | full_miss
	Key      string // cache key, when given
}

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

func (m *traceMetrics) times() CompileTimes {
	t := m.metricTimes
	return CompileTimes{
		Frame: usOr(t.DynamoUS, m.FrameSeconds), Backend: usOr(t.BackendUS, t.BackendS),
		Inductor: usOr(t.InductorUS, t.InductorS), CodeGen: usOr(t.CodeGenUS, t.CodeGenS),
		Triton: usOr(t.TritonUS, nil), Autotune: usOr(t.AutotuneUS, nil), Backward: usOr(t.BackwardUS, nil),
		RemoteGet:       sumOpt(usOr(t.RemoteFXGetUS, nil), usOr(t.PGOGetUS, nil)),
		RuntimeAutotune: usOr(t.RtAutotuneUS, nil), RuntimeCudagraphify: usOr(t.RtCudagraphUS, nil),
	}
}

// stageMetrics emits the KindCompile record of a bwd_compilation_metrics or *_runtime envelope.
func (st *traceState) stageMetrics(env *envelope, m *traceMetrics, stage CompileStage, line int) {
	r := st.record(env, line, KindCompile)
	if cid, ok := parseCompileID([]byte(m.CompileID)); ok {
		r.CompileID = cid
		if m.FailReason != nil && isLimitReason(*m.FailReason) { // 2.6: "cache_size_limit reached", for the
			// compile refused at the limit whose recompile reasons finish() reads
			if name, _ := limitOfReason(*m.FailReason); name != "" {
				st.limitName[cid] = name
			}
		}
	}
	r.Era = st.era()
	r.Compile = &FrameCompile{Function: m.CoName, File: m.CoFilename, Line: m.CoFirstLineNo, GraphOps: -1,
		Failed: m.FailType != nil && *m.FailType != "", Stage: stage, Times: m.times()}
	st.emit(r)
}

// cacheArtifacts maps TORCH_TRACE artifact names to (cache, state); "" state: read cache_state from the payload.
var cacheArtifacts = map[string][2]string{
	"fx_graph_cache_hit": {CacheFXGraph, CacheHit}, "fx_graph_cache_miss": {CacheFXGraph, CacheMiss},
	"fx_graph_cache_bypass": {CacheFXGraph, CacheBypass}, "fx_graph_cache_hash": {CacheFXGraph, ""},
	"aotautograd_cache_hit": {CacheAOT, CacheHit}, "aotautograd_cache_miss": {CacheAOT, CacheMiss},
	"aotautograd_cache_bypass": {CacheAOT, CacheBypass}, "aotautograd_cache_hash": {CacheAOT, ""},
	"get_local_code_state": {CachePGO, CacheHit}, "get_remote_code_state": {CachePGO, CacheHit},
	"put_local_code_state": {CachePGO, CacheWrite}, "put_remote_code_state": {CachePGO, CacheWrite},
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
func (st *traceState) cacheArtifact(env *envelope, name string, payload []string, line int) {
	cs := cacheArtifacts[name]
	ev := &CacheEvent{Cache: cs[0], State: cs[1]}
	if cs[0] != CachePGO {
		var text string
		var p cachePayload
		var valid, typeErr bool
		if len(payload) == 1 { // json.dumps' one line: read for the few fields, never its key's components
			text = payload[0]
			p, valid, typeErr = cacheFields(text)
		} else {
			text = strings.Join(payload, "\n")
			valid = json.Unmarshal([]byte(text), &p) == nil
		}
		if !valid || typeErr {
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
	case CacheHit, CacheMiss, CacheBypass, CacheWrite:
	default:
		return // "disabled" and unknown states are no lookup
	}
	r := st.record(env, line, KindCache)
	r.Artifact, r.Era, r.Cache = name, st.era(), ev
	st.emit(r)
}

// Text lines of the caches (TORCH_LOGS inductor, aot, dynamo; compile-time-and-caches.md §3).
var cacheLines = []struct {
	prefix       string
	cache, state string
}{
	{"fx graph cache hit for key ", CacheFXGraph, CacheHit},
	{"fx graph cache miss for key ", CacheFXGraph, CacheMiss},
	{"Bypassing FX Graph Cache because ", CacheFXGraph, CacheBypass},
	{"AOTAutograd cache hit for key ", CacheAOT, CacheHit},
	{"AOTAutograd cache miss for key ", CacheAOT, CacheMiss},
	{"Bypassing autograd cache due to: ", CacheAOT, CacheBypass},
	{"get_code_state remote miss on ", CachePGO, CacheMiss},
	{"get_code_state using default", CachePGO, CacheDefault},
	{"put_code_state: local cache disabled", CachePGO, CacheDisabled},
	{"put_code_state: wrote local ", CachePGO, CacheWrite},
	{"put_remote_code_state: wrote remote ", CachePGO, CacheWrite},
}

var pgoHit = regexp.MustCompile(`^get_code_state \S.* hit (local|remote), \d+ entries`)

// parseCacheLine reads one cache line of the text log.
func parseCacheLine(l string) (*CacheEvent, bool) {
	for _, c := range cacheLines {
		if rest, ok := strings.CutPrefix(l, c.prefix); ok {
			ev := &CacheEvent{Cache: c.cache, State: c.state}
			switch c.state {
			case CacheBypass:
				ev.Reason = strings.Trim(strings.TrimSpace(rest), "'")
			case CacheHit, CacheMiss:
				if c.cache != CachePGO {
					ev.Key = strings.TrimSpace(rest)
				}
			}
			return ev, true
		}
	}
	if pgoHit.MatchString(l) {
		return &CacheEvent{Cache: CachePGO, State: CacheHit}, true
	}
	return nil, false
}

// isCacheHead reports a text line that is a cache line (a record of its own), without allocating.
func isCacheHead(b []byte) bool {
	switch b[0] {
	case 'f', 'A', 'B', 'g', 'p':
	default:
		return false
	}
	for _, c := range cacheLines {
		if bytes.HasPrefix(b, []byte(c.prefix)) {
			return true
		}
	}
	return bytes.HasPrefix(b, []byte("get_code_state ")) && pgoHit.Match(b)
}
