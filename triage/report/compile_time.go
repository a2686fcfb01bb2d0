package report

import (
	"fmt"
	"sort"

	"github.com/torchtriage/torchtriage/logparse"
)

// Compile time per rank, per phase and per frame, from the best source each rank has: TORCH_TRACE
// compilation_metrics (frames, lazy backward compiles, run-time work), else the probe's compile_times()
// (compile_probe.go). Cache lookups are in caches.go. A number is given only when a source has it: an absent
// phase is not a zero.

// Compile sources.
const (
	SourceTrace = "trace"
	SourceLog   = "log"
	SourceProbe = "probe"
)

// Phases is compile time by phase, in seconds. Dynamo, AOT, Inductor, Triton and Autotune are exclusive (they
// add up to the total); CacheLookup (remote cache reads) overlaps them.
type Phases struct {
	Dynamo      *float64 `json:"dynamo_s,omitempty"`       // tracing, guards: frame − backend
	AOT         *float64 `json:"aot_s,omitempty"`          // AOTAutograd incl. joint passes and cache loads: backend − inductor
	Inductor    *float64 `json:"inductor_s,omitempty"`     // lowering and code generation: inductor − triton − autotune
	Triton      *float64 `json:"triton_s,omitempty"`       // kernel compiles, Triton on GPU, C++ on CPU (async_compile; torch's triton_compile_time_us)
	Autotune    *float64 `json:"autotune_s,omitempty"`     // compile-time autotuning
	CacheLookup *float64 `json:"cache_lookup_s,omitempty"` // remote cache reads (part of the phases above)
}

// PhaseNames are the phases in order, with Get for each, as every text names them: "kernels" is the kernel
// compiles (Triton on a GPU, C++ on a CPU; the JSON keeps torch's name for it, triton_s).
var PhaseNames = []string{"dynamo", "aot", "inductor", "kernels", "autotune", "cache_lookup"}

// Get returns a phase by name (nil when absent).
func (p Phases) Get(name string) *float64 {
	switch name {
	case "dynamo":
		return p.Dynamo
	case "aot":
		return p.AOT
	case "inductor":
		return p.Inductor
	case "kernels":
		return p.Triton
	case "autotune":
		return p.Autotune
	case "cache_lookup":
		return p.CacheLookup
	}
	return nil
}

func (p *Phases) Add(q Phases) {
	p.Dynamo, p.AOT, p.Inductor = addOpt(p.Dynamo, q.Dynamo), addOpt(p.AOT, q.AOT), addOpt(p.Inductor, q.Inductor)
	p.Triton, p.Autotune = addOpt(p.Triton, q.Triton), addOpt(p.Autotune, q.Autotune)
	p.CacheLookup = addOpt(p.CacheLookup, q.CacheLookup)
}

// Empty reports whether no phase is known.

func addOpt(a, b *float64) *float64 {
	switch {
	case b == nil:
		return a
	case a == nil:
		v := *b
		return &v
	}
	v := *a + *b
	return &v
}

func subNonNeg(a float64, bs ...*float64) float64 {
	for _, b := range bs {
		if b != nil {
			a -= *b
		}
	}
	return max(a, 0)
}

func Fptr(v float64) *float64 { return &v }

// phasesOf splits one compile record's nested spans into exclusive phases; total is the record's compile time
// (nil for a record that gives none).
func phasesOf(c *logparse.FrameCompile) (total *float64, p Phases) {
	t := c.Times
	outer := t.Frame
	if c.Stage == logparse.StageBackward {
		outer = t.Backward
	}
	if outer == nil {
		return nil, p
	}
	inner := t.Backend // the frame's backend call; the lazy backward is all backend
	if c.Stage == logparse.StageBackward {
		inner = outer
	} else if inner == nil {
		p.Dynamo = Fptr(*outer)
		return outer, p
	} else {
		p.Dynamo = Fptr(subNonNeg(*outer, inner))
	}
	if t.Inductor != nil {
		p.AOT = Fptr(subNonNeg(*inner, t.Inductor))
		p.Inductor = Fptr(subNonNeg(*t.Inductor, t.Triton, t.Autotune))
	} else {
		p.AOT = Fptr(subNonNeg(*inner, t.Triton, t.Autotune))
	}
	p.Triton, p.Autotune, p.CacheLookup = t.Triton, t.Autotune, t.RemoteGet
	return outer, p
}

// FrameRef names a frame compile: function, site, compile id and rank (nil: a process without rank).
type FrameRef struct {
	Function  string `json:"function"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	CompileID string `json:"compile_id"`
	Rank      *int   `json:"rank,omitempty"`
}

// FrameTime is the compile time of one frame compile (a compile id on one rank), its lazy backward included.
type FrameTime struct {
	FrameRef
	TotalS    float64  `json:"total_s"`
	BackwardS *float64 `json:"backward_s,omitempty"` // the lazy backward compile, part of total_s
	ByPhase   Phases   `json:"by_phase"`
	Cache     string   `json:"cache,omitempty"` // warm | cold | partial | bypass, from the FX/AOT lookups of this compile
	Failed    bool     `json:"failed,omitempty"`

	records int // frame compile records (a compile id repeats after torch._dynamo.reset())
	RankID  int `json:"-"`
}

// RuntimeTime is run-time work charged to compiles (*_runtime records), kept out of the compile total.
type RuntimeTime struct {
	AutotuneS     *float64 `json:"autotune_s,omitempty"`
	CudagraphifyS *float64 `json:"cudagraphify_s,omitempty"`
}

// RankCompile is one rank's compile time and cache lookups.
type RankCompile struct {
	Source  string       `json:"source"` // trace | log | probe (times and caches can come from two: "probe+log")
	TotalS  *float64     `json:"total_s,omitempty"`
	ByPhase Phases       `json:"by_phase"`
	Frames  int          `json:"frames,omitempty"` // frame compiles
	Runtime *RuntimeTime `json:"runtime,omitempty"`
	Caches  Caches       `json:"caches,omitempty"`
}

// CompileReport is the report's "compile" object.
type CompileReport struct {
	Source  string                 `json:"source"`
	TotalS  *float64               `json:"total_s,omitempty"`
	ByPhase Phases                 `json:"by_phase"`
	Frames  []*FrameTime           `json:"frames"`
	Runtime *RuntimeTime           `json:"runtime,omitempty"`
	Caches  Caches                 `json:"caches,omitempty"`
	PerRank map[string]RankCompile `json:"per_rank,omitempty"`

	ranks map[int]*RankCompile // rank -1: a process without rank
}

type frameKey struct {
	rank  int
	input string
	cid   logparse.CompileID
}

// compileAgg collects compile-time and cache records (held by the Aggregator, under its lock).
type compileAgg struct {
	frames map[frameKey]*FrameTime
	order  []frameKey
	rt     map[int]*RuntimeTime
	caches map[int]map[logparse.Source]*rankCaches
	lookup map[frameKey]*CacheMix // FX/AOT lookups per compile (trace)
	trace  map[int]bool           // ranks with trace compile records
}

func newCompileAgg() *compileAgg {
	return &compileAgg{frames: map[frameKey]*FrameTime{}, rt: map[int]*RuntimeTime{},
		caches: map[int]map[logparse.Source]*rankCaches{}, lookup: map[frameKey]*CacheMix{}, trace: map[int]bool{}}
}

// add takes a record; it reports whether the record is fully handled here (cache lookups, backward and
// run-time compile records: the frame-compile summary counts frame compiles only).
func (c *compileAgg) Add(r *logparse.Record) bool {
	switch r.Kind {
	case logparse.KindCache:
		c.addCache(r)
		return true
	case logparse.KindCompile:
	default:
		return false
	}
	fc := r.Compile
	c.trace[r.Rank] = true
	if fc.Stage == logparse.StageRuntime {
		rt := c.rt[r.Rank]
		if rt == nil {
			rt = &RuntimeTime{}
			c.rt[r.Rank] = rt
		}
		rt.AutotuneS = addOpt(rt.AutotuneS, fc.Times.RuntimeAutotune)
		rt.CudagraphifyS = addOpt(rt.CudagraphifyS, fc.Times.RuntimeCudagraphify)
		return true
	}
	total, ph := phasesOf(fc)
	if total == nil {
		return fc.Stage != logparse.StageFrame
	}
	cid := r.CompileID
	cid.Attempt = 0 // one compile, however many times Dynamo restarted it (as its cache lookups are keyed)
	k := frameKey{r.Rank, r.Input, cid}
	f := c.frames[k]
	if f == nil {
		f = &FrameTime{FrameRef: FrameRef{CompileID: r.CompileID.String()}, RankID: r.Rank}
		if r.Rank >= 0 {
			f.Rank = &f.RankID
		}
		c.frames[k] = f
		c.order = append(c.order, k)
	}
	f.TotalS += *total
	f.ByPhase.Add(ph)
	if fc.Stage == logparse.StageBackward {
		f.BackwardS = addOpt(f.BackwardS, total)
		return true
	}
	f.records++
	f.Function, f.File, f.Line, f.Failed = fc.Function, fc.File, fc.Line, fc.Failed
	return false
}

// report builds the compile object; nil when no record gave compile time or a cache lookup.
func (c *compileAgg) report() *CompileReport {
	out := &CompileReport{Frames: []*FrameTime{}, ranks: map[int]*RankCompile{}}
	rank := func(r int) *RankCompile {
		rc := out.ranks[r]
		if rc == nil {
			rc = &RankCompile{}
			out.ranks[r] = rc
		}
		return rc
	}
	for _, k := range c.order {
		f := c.frames[k]
		f.Cache = c.lookup[k].State()
		out.Frames = append(out.Frames, f)
		rc := rank(k.rank)
		rc.Source = SourceTrace
		rc.TotalS = addOpt(rc.TotalS, &f.TotalS)
		rc.ByPhase.Add(f.ByPhase)
		rc.Frames += f.records
	}
	for r, rt := range c.rt {
		rank(r).Source = SourceTrace
		rank(r).Runtime = rt
	}
	for r, bySrc := range c.caches {
		src, rcs := bestCaches(bySrc, c.trace[r])
		if rcs == nil {
			continue
		}
		rc := rank(r)
		rc.Caches = rcs.caches()
		if rc.Source == "" {
			rc.Source = src
		}
	}
	if len(out.ranks) == 0 {
		return nil
	}
	sort.SliceStable(out.Frames, func(i, j int) bool {
		if out.Frames[i].RankID != out.Frames[j].RankID {
			return out.Frames[i].RankID < out.Frames[j].RankID
		}
		return false
	})
	out.finish()
	return out
}

// Noise: a compile-time change counts when it is at least this large and this much of the smaller side
// (15 %: the threshold of PyTorch's compile-time dashboard).
const (
	NoiseS            = 1.0
	DefaultTolerance  = 0.15
	MetricNoiseFactor = 0.05
)

func (f FrameRef) Key() string {
	r := -1
	if f.Rank != nil {
		r = *f.Rank
	}
	return fmt.Sprintf("%d\x00%s\x00%s", r, f.Function, f.CompileID)
}

func (f FrameRef) Label() string {
	s := fmt.Sprintf("`%s` [%s]", f.Function, f.CompileID)
	if f.Rank != nil {
		s = fmt.Sprintf("rank %d %s", *f.Rank, s)
	}
	return s
}
