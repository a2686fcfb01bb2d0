package logparse

import (
	"bytes"
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
