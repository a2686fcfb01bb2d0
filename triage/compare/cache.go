package compare

import (
	"cmp"
	"fmt"
	"sort"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// The cache half of compare: each cache's state on both sides, and why it changed.

// compareCaches sets res.Caches: each cache's lookups on both sides, with the change of state when both sides show
// their lookups.
func (res *Result) CompareCaches(ca, cb *report.CompileReport) {
	var cachesA, cachesB report.Caches
	if ca != nil {
		cachesA = ca.Caches
	}
	if cb != nil {
		cachesB = cb.Caches
	}
	for _, name := range report.CacheNames {
		x, okx := cachesA[name]
		y, oky := cachesB[name]
		if !okx && !oky {
			continue
		}
		c := CacheChange{Cache: name, A: x, B: y}
		// a side without compile records (no TORCH_TRACE, no probe) shows no lookup: unknown, not "none"
		if sa, sb := StateOfCache(x, okx), StateOfCache(y, oky); sa != sb && ca != nil && cb != nil && sa != CacheUnknown && sb != CacheUnknown {
			c.From, c.To = sa, sb
		}
		res.Caches = append(res.Caches, c)
	}
}

// CacheState is what a cache's lookups on one side amount to; its String is the word compare shows.
type CacheState uint8

// The cache states. The zero CacheState is no state: a CacheChange without a change of state.
const (
	CacheNone       CacheState = iota + 1 // no lookup recorded
	CacheHit                              // every lookup hit
	CacheMiss                             // every lookup missed
	CacheBypassed                         // every lookup bypassed
	CacheMostlyHit                        // two thirds or more hit
	CacheMostlyMiss                       // two thirds or more missed
	CacheMixed                            // neither
	CacheUnknown                          // no hit where the source does not show misses (a trace's PGO)
)

var cacheStateWords = [...]string{CacheNone: "none", CacheHit: "hit", CacheMiss: "miss", CacheBypassed: "bypass",
	CacheMostlyHit: "mostly hit", CacheMostlyMiss: "mostly miss", CacheMixed: "mixed", CacheUnknown: "unknown"}

// String is the state's word ("mostly hit"), "" for no state.
func (s CacheState) String() string {
	if int(s) < len(cacheStateWords) {
		return cacheStateWords[s]
	}
	return ""
}

// MarshalText writes the state's word.
func (s CacheState) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads what MarshalText wrote.
func (s *CacheState) UnmarshalText(b []byte) error {
	for i, w := range cacheStateWords {
		if w != "" && w == string(b) {
			*s = CacheState(i)
			return nil
		}
	}
	return fmt.Errorf("unknown cache state %q", b)
}

// hits reports a state whose lookups hit, all or most; misses one whose lookups missed, all or most.
func (s CacheState) hits() bool   { return s == CacheHit || s == CacheMostlyHit }
func (s CacheState) misses() bool { return s == CacheMiss || s == CacheMostlyMiss }

// cacheState is a cache's lookups' state: hit, miss, bypass, mostly hit or mostly miss (two thirds or more), mixed,
// none (no lookup recorded), or unknown (no hit where the source does not show misses: a trace's PGO).
func StateOfCache(s report.CacheStats, ok bool) CacheState {
	switch {
	case ok && s.Hit == 0 && s.Known != 0 && s.Known&report.KnowMiss == 0:
		return CacheUnknown
	case !ok || s.Lookups() == 0:
		return CacheNone
	case s.Hit == s.Lookups():
		return CacheHit
	case s.Miss == s.Lookups():
		return CacheMiss
	case s.Bypass == s.Lookups():
		return CacheBypassed
	case 3*s.Hit >= 2*s.Lookups(): // a cold → warm pair of a run with recompiles: 3 hit 19 miss → 18 hit 1 miss
		return CacheMostlyHit
	case 3*s.Miss >= 2*s.Lookups():
		return CacheMostlyMiss
	}
	return CacheMixed
}

// cacheCause names why a cache changed state from the settings and versions that differ, by the direction of
// the change: a changed key or dir only ever misses; more hits in B is a warm start (or caches switched on), as
// many or fewer ("hit → mostly hit") is entries not found; "→ none" is no lookup in B. A bypass is no lookup that
// failed: the cache declined the graph (compile-time-and-caches.md §3.1–3.2), so a change from or to it names the
// side that bypassed and the reason its records carry (bypassWords), never entries not found or a warm start.
func (res *Result) CacheCause(c CacheChange) string {
	// all hits in B, or more of them: an improvement ("miss → mostly miss"); as many or fewer, even where most still
	// hit ("hit → mostly hit"), is lookups B did not find
	gain := c.To == CacheHit || c.To != CacheNone && c.To != CacheBypassed && HitShare(c.B) > HitShare(c.A)
	torch := ""
	for _, v := range res.Versions {
		if v.Key == "version.torch" {
			torch = "torch version " + v.A + " → " + v.B
		}
	}
	switchedBy, dir, key := "", "", ""
	for _, s := range res.Settings {
		name := strings.TrimPrefix(s.Key, "env.")
		switch {
		case cacheSwitch(name) && switches(name, c.Cache):
			switchedBy = cmp.Or(switchedBy, s.String())
		case strings.Contains(name, "CACHE_DIR"):
			dir = cmp.Or(dir, s.String())
		case inCacheKey(c.Cache, name):
			key = cmp.Or(key, s.String())
		}
	}
	switchNote := ""
	if switchedBy != "" {
		switchNote = "; setting that switches it differs: " + switchedBy
	}
	if c.From == CacheBypassed && c.To != CacheNone { // A looked nothing up: nothing B found or missed is a change of key
		return bypassWords("A", c.A) + "; B looked it up" + map[CacheState]string{CacheHit: " and hit", CacheMiss: " and missed"}[c.To] + switchNote
	}
	// B's lookups that bypassed, where their share grew: the cache declined them, whatever else B shows
	bypassed := c.To != CacheNone && c.B.Bypass > 0 && bypassShare(c.B) > bypassShare(c.A)
	if bypassed && c.B.Miss == 0 && !gain {
		return bypassWords("B", c.B) + switchNote
	}
	switch {
	case gain:
		off := c.From == CacheNone || c.From == CacheBypassed // A made no lookup: something turned the cache on
		switch {
		case off && switchedBy != "":
			return "caches enabled by " + switchedBy
		case off && torch != "" && c.Cache == "pgo":
			return torch + ": 2.6 has no local PGO"
		case off && torch != "":
			return torch + ": which caches are on by default differs between versions"
		}
		if dir != "" {
			return "B's cache dir held its entries: " + dir
		}
		if c.To != CacheHit && c.To != CacheMostlyHit { // a few more hits: a cold run reuses its own entries too (g07: 3 of 22)
			return fmt.Sprintf("more of B's lookups hit (%d of %d): an earlier run's entries, or B's own reused", c.B.Hit, c.B.Lookups())
		}
		return "warm start: the entries an earlier run wrote"
	case c.To == CacheNone:
		switch {
		case switchedBy != "":
			return "no lookup in B: caches disabled by " + switchedBy
		case torch != "":
			return "no lookup in B: " + torch + " (which caches are on by default differs between versions)"
		}
		return "no lookup in B: caches off or not reached"
	}
	if bypassed { // misses beside the bypasses: both, each with its cause
		return bypassWords("B", c.B) + "; " + res.missCause(c, torch, switchedBy, dir, key)
	}
	return res.missCause(c, torch, switchedBy, dir, key)
}

// missCause is why B's lookups missed where A's hit more, from the settings and versions that differ.
func (res *Result) missCause(c CacheChange, torch, switchedBy, dir, key string) string {
	switch {
	case switchedBy != "" && c.From == CacheNone:
		return "A's caches were off: " + switchedBy
	case switchedBy != "":
		return "caches disabled or enabled by " + switchedBy
	case torch != "":
		return "key changed: " + torch
	case dir != "":
		return "cache dir changed: " + dir
	case key != "":
		return "key changed: " + key
	}
	if len(res.settingsWhy) > 0 { // nothing says which settings differ
		return "entries not found; " + res.settingsWhy[0]
	}
	return "entries not found, no recorded setting differs: a cleared or new cache dir, or a setting the probe does not record"
}

// bypassWords words one side's bypassed lookups from what its records carry: "B bypassed the cache: <reason>"
// (the most frequent first, "+N other reasons"), "B bypassed 2 of 6 lookups: …" where some did not bypass, and
// "…; its records give no reason" where none carries one (the probe's counters, a bypass line cut short).
func bypassWords(side string, s report.CacheStats) string {
	what := side + " bypassed the cache"
	if s.Bypass < s.Lookups() {
		what = fmt.Sprintf("%s bypassed %d of %d lookups", side, s.Bypass, s.Lookups())
	}
	var reasons []string
	for r, n := range s.BypassReasons {
		if strings.TrimSpace(r) != "" && n > 0 {
			reasons = append(reasons, r)
		}
	}
	if len(reasons) == 0 {
		return what + "; its records give no reason"
	}
	sort.Slice(reasons, func(i, j int) bool {
		ni, nj := s.BypassReasons[reasons[i]], s.BypassReasons[reasons[j]]
		return ni > nj || ni == nj && reasons[i] < reasons[j]
	})
	what += ": " + text.OneLine(reasons[0], 100)
	if n := len(reasons) - 1; n > 0 {
		what += " (+" + report.Plural(n, "other reason") + ")"
	}
	return what
}

// bypassShare is the share of a cache's lookups that bypassed, 0 with none.
func bypassShare(s report.CacheStats) float64 {
	if n := s.Lookups(); n > 0 {
		return float64(s.Bypass) / float64(n)
	}
	return 0
}

// hitShare is the share of a cache's lookups that hit, 0 with none.
func HitShare(s report.CacheStats) float64 {
	if n := s.Lookups(); n > 0 {
		return float64(s.Hit) / float64(n)
	}
	return 0
}

// switches reports whether a cache switch turns that cache on or off: functorch's enable_autograd_cache is the
// AOTAutograd cache's alone, the FX graph cache settings the FX graph cache's, the PGO settings PGO's; the
// disable-all switches every cache's.
func switches(name, cache string) bool {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "force_disable_caches"), strings.Contains(n, "disable_caches"):
		return true
	case strings.Contains(n, "autograd_cache"):
		return cache == "aot_autograd"
	case strings.Contains(n, "fx_graph"):
		return cache == "fx_graph"
	case strings.Contains(n, "pgo"):
		return cache == "pgo"
	case n == "inductor.freezing" || n == "torchinductor_freezing":
		return cache == "aot_autograd"
	}
	return true
}

// cacheSwitch reports a setting that turns compile caches on or off.
func cacheSwitch(name string) bool {
	return strings.Contains(name, "DISABLE") || strings.HasSuffix(name, "_CACHE") || strings.HasSuffix(name, "fx_graph_cache") ||
		name == "functorch.enable_autograd_cache" || name == "inductor.freezing" || name == "TORCHINDUCTOR_FREEZING"
}

// inCacheKey reports a setting that is part of a cache's key: the cache key tag and Inductor's config (its
// TORCHINDUCTOR_ variables; torch/_inductor/codecache.py's FxGraphHashDetails hashes the config) for the FX graph
// and AOTAutograd caches (with functorch's config for the latter); the job id, sticky key and cache key tag for
// PGO (compile-time-and-caches.md §3.3: "{job_id}:{rank}:{cache_key_tag}").
func inCacheKey(cache, name string) bool {
	switch cache {
	case "pgo":
		return name == "TORCH_COMPILE_JOB_ID" || name == "compiler.job_id" || name == "TORCH_COMPILE_STICKY_PGO_KEY" ||
			name == "TORCH_COMPILE_CACHE_KEY_TAG" || name == "compiler.cache_key_tag"
	case "fx_graph", "aot_autograd":
		return name == "TORCH_COMPILE_CACHE_KEY_TAG" || name == "compiler.cache_key_tag" ||
			strings.HasPrefix(name, "inductor.") || strings.HasPrefix(name, "TORCHINDUCTOR_") ||
			cache == "aot_autograd" && strings.HasPrefix(name, "functorch.")
	}
	return false
}
