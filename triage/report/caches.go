package report

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Compile caches per rank: FX graph, AOTAutograd and PGO hit / miss / bypass counts with bypass reasons, from
// TORCH_TRACE cache artifacts, the text log's cache lines or the probe's counters (the best a rank has).

// CacheStats are one cache's lookups. A count that the source cannot tell (a TORCH_TRACE records PGO hits and
// writes, not misses) is left out of the JSON, never written as 0.
type CacheStats struct {
	Hit           int            `json:"-"`
	Miss          int            `json:"-"`
	Bypass        int            `json:"-"`
	Writes        int            `json:"-"` // PGO code-state writes
	BypassReasons map[string]int `json:"-"`
	Known         uint8          `json:"-"` // KnowHit | KnowMiss | KnowBypass | KnowWrites
}

// Which counts of CacheStats a source gives.
const (
	KnowHit uint8 = 1 << iota
	KnowMiss
	KnowBypass
	KnowWrites
)

type cacheStatsJSON struct {
	Hit           *int           `json:"hit,omitempty"`
	Miss          *int           `json:"miss,omitempty"`
	Bypass        *int           `json:"bypass,omitempty"`
	Writes        *int           `json:"writes,omitempty"`
	BypassReasons map[string]int `json:"bypass_reasons,omitempty"`
}

// MarshalJSON writes the known counts only.
func (s CacheStats) MarshalJSON() ([]byte, error) {
	var j cacheStatsJSON
	opt := func(bit uint8, v int) *int {
		if s.Known&bit == 0 {
			return nil
		}
		return &v
	}
	j.Hit, j.Miss, j.Bypass, j.Writes = opt(KnowHit, s.Hit), opt(KnowMiss, s.Miss), opt(KnowBypass, s.Bypass), opt(KnowWrites, s.Writes)
	j.BypassReasons = s.BypassReasons
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (s *CacheStats) UnmarshalJSON(b []byte) error {
	var j cacheStatsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = CacheStats{BypassReasons: j.BypassReasons}
	get := func(p *int, bit uint8) int {
		if p == nil {
			return 0
		}
		s.Known |= bit
		return *p
	}
	s.Hit, s.Miss, s.Bypass, s.Writes = get(j.Hit, KnowHit), get(j.Miss, KnowMiss), get(j.Bypass, KnowBypass), get(j.Writes, KnowWrites)
	return nil
}

// Lookups is hit + miss + bypass.
func (s CacheStats) Lookups() int { return s.Hit + s.Miss + s.Bypass }

// String is "2 hit · 4 miss · 1 bypass" (known counts only).
func (s CacheStats) String() string { return strings.Join(s.parts(false), " · ") }

// Short is the known counts that are not 0 ("2 hit 4 miss"), "0" when all are.
func (s CacheStats) Short() string {
	if p := s.parts(true); len(p) > 0 {
		return strings.Join(p, " ")
	}
	return "0"
}

func (s CacheStats) parts(nonZero bool) []string {
	var parts []string
	for _, p := range []struct {
		bit  uint8
		n    int
		word string
	}{{KnowHit, s.Hit, "hit"}, {KnowMiss, s.Miss, "miss"}, {KnowBypass, s.Bypass, "bypass"}, {KnowWrites, s.Writes, "written"}} {
		if s.Known&p.bit != 0 && (p.n != 0 || !nonZero) {
			parts = append(parts, strconv.Itoa(p.n)+" "+p.word)
		}
	}
	return parts
}

func (s CacheStats) plus(o CacheStats) CacheStats {
	s.Hit, s.Miss, s.Bypass, s.Writes = s.Hit+o.Hit, s.Miss+o.Miss, s.Bypass+o.Bypass, s.Writes+o.Writes
	s.Known |= o.Known
	if len(o.BypassReasons) > 0 {
		m := make(map[string]int, len(s.BypassReasons)+len(o.BypassReasons))
		for k, v := range s.BypassReasons {
			m[k] += v
		}
		for k, v := range o.BypassReasons {
			m[k] += v
		}
		s.BypassReasons = m
	}
	return s
}

// Caches maps a cache name (logparse.CacheFXGraph "fx_graph", CacheAOT "aot_autograd", CachePGO "pgo") to its
// lookups.
type Caches map[string]CacheStats

// CacheNames are the caches in display order.
var CacheNames = []string{logparse.CacheFXGraph, logparse.CacheAOT, logparse.CachePGO}

func (c Caches) merge(o Caches) Caches {
	if len(o) == 0 {
		return c
	}
	if c == nil {
		c = Caches{}
	}
	for k, v := range o {
		c[k] = c[k].plus(v)
	}
	return c
}

// rankCaches counts one rank's lookups from one source.
type rankCaches struct {
	stats   map[string]*CacheStats
	pgoHit  map[string]bool // a PGO hit of this input not yet followed by its "using default" line
	pgoMiss map[string]int  // the misses a "using default" of this input counted (undone by "local cache disabled")
}

// known is what a source tells of a cache: trace and text show every FX/AOT state; a trace shows PGO hits and
// writes only, the text log PGO hits, remote misses and writes.
func known(src logparse.Source, cache string) uint8 {
	switch {
	case cache != logparse.CachePGO:
		return KnowHit | KnowMiss | KnowBypass
	case src == logparse.FromTrace:
		return KnowHit | KnowWrites
	}
	return KnowHit | KnowMiss | KnowWrites
}

func (c *compileAgg) addCache(r *logparse.Record) {
	ev := r.Cache
	bySrc := c.caches[r.Rank]
	if bySrc == nil {
		bySrc = map[logparse.Source]*rankCaches{}
		c.caches[r.Rank] = bySrc
	}
	rc := bySrc[r.Source]
	if rc == nil {
		rc = &rankCaches{stats: map[string]*CacheStats{}}
		bySrc[r.Source] = rc
	}
	s := rc.stats[ev.Cache]
	if s == nil {
		s = &CacheStats{Known: known(r.Source, ev.Cache)}
		rc.stats[ev.Cache] = s
	}
	switch ev.State {
	case logparse.CacheHit:
		s.Hit++
	case logparse.CacheMiss:
		s.Miss++
	case logparse.CacheBypass:
		s.Bypass++
		if s.BypassReasons == nil {
			s.BypassReasons = map[string]int{}
		}
		s.BypassReasons[text.OneLine(ev.Reason, 200)]++
	case logparse.CacheWrite:
		s.Writes++
	case logparse.CacheDefault: // the end of a lookup: a miss unless it hit
		if rc.pgoHit[r.Input] {
			delete(rc.pgoHit, r.Input)
		} else {
			s.Miss++
			if rc.pgoMiss == nil {
				rc.pgoMiss = map[string]int{}
			}
			rc.pgoMiss[r.Input]++
		}
	case logparse.CacheDisabled: // local PGO off (2.6): nothing could be found, no miss
		s.Miss -= rc.pgoMiss[r.Input]
		delete(rc.pgoMiss, r.Input)
	}
	if ev.Cache == logparse.CachePGO && ev.State == logparse.CacheHit && r.Source == logparse.FromText {
		if rc.pgoHit == nil {
			rc.pgoHit = map[string]bool{}
		}
		rc.pgoHit[r.Input] = true
	}
	if r.Source == logparse.FromTrace && ev.Cache != logparse.CachePGO {
		cid := r.CompileID
		cid.Attempt = 0 // a restarted compile (attempt 1 after a graph break) looks up for the compile its metrics name
		k := frameKey{r.Rank, r.Input, cid}
		m := c.lookup[k]
		if m == nil {
			m = &CacheMix{}
			c.lookup[k] = m
		}
		m.Add(ev.State)
	}
}

// bestCaches picks a rank's source: the trace when it has one (its compile records say so even when no cache
// was consulted), else the text log.
func bestCaches(bySrc map[logparse.Source]*rankCaches, hasTrace bool) (string, *rankCaches) {
	if rc := bySrc[logparse.FromTrace]; rc != nil || hasTrace {
		return SourceTrace, rc
	}
	return SourceLog, bySrc[logparse.FromText]
}

func (rc *rankCaches) caches() Caches {
	out := Caches{}
	for k, s := range rc.stats {
		out[k] = *s
	}
	return out
}

// cacheMix is the FX/AOT lookups of one compile.
type CacheMix struct{ Hit, miss, Bypass int }

func (m *CacheMix) Add(state string) {
	switch state {
	case logparse.CacheHit:
		m.Hit++
	case logparse.CacheMiss:
		m.miss++
	case logparse.CacheBypass:
		m.Bypass++
	}
}

// Cache states of a compile (FrameTime.Cache).
const (
	CacheWarm    = "warm"
	CacheCold    = "cold"
	CachePartial = "partial"
	CacheBypass  = "bypass"
)

func (m *CacheMix) State() string {
	switch {
	case m == nil || m.Hit+m.miss+m.Bypass == 0:
		return ""
	case m.Bypass > 0 && m.Hit > 0: // AOT bypass + FX hit (freezing): partial (compile-time-and-caches.md §3.6)
		return CachePartial
	case m.Bypass > 0:
		return CacheBypass
	case m.miss == 0:
		return CacheWarm
	case m.Hit == 0:
		return CacheCold
	}
	return CachePartial
}

func Itoa(n int) string { return strconv.Itoa(n) }

func AtoiOr(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}
