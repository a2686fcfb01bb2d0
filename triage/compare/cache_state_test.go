package compare_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Every pair of cache states compare can tell apart: the change reads "A's state → B's state" (the JSON's change,
// the text and the verdict), and its cause follows the direction of the hits, not the last word of B's state. A
// fully warm A against a B that missed a few ("hit → mostly hit") read "warm start: the entries an earlier run
// wrote": the cause of a gain in hits, for a fall, because the words were split back at their last space
// ("mostly hit" → "hit"). The change is typed (From, To); JSON keeps its words in change and adds from and to.
// A few more hits in B ("miss → mostly miss") are no warm start: a cold run hits entries it wrote itself (g07's
// cold H200 run: 3 of 22), so only a B that hits (all or most) reads "warm start"; the others say both.
// A change to or from "bypass" is the cache declining the lookup, not an entry it did not find: "miss → bypass"
// read "entries not found, no recorded setting differs" and "bypass → hit" "warm start"; the cause says which side
// bypassed and why, from the bypass reason its records carry.
func TestCacheChangeOfEveryStatePair(t *testing.T) {
	known := report.KnowHit | report.KnowMiss | report.KnowBypass
	states := []struct {
		word  string
		state compare.CacheState
		stats report.CacheStats
	}{
		{"none", compare.CacheNone, report.CacheStats{Known: known}},
		{"hit", compare.CacheHit, report.CacheStats{Hit: 6, Known: known}},
		{"miss", compare.CacheMiss, report.CacheStats{Miss: 6, Known: known}},
		{"bypass", compare.CacheBypassed, report.CacheStats{Bypass: 6, Known: known, BypassReasons: map[string]int{"Cannot cache a graph with freezing enabled": 6}}},
		{"mostly hit", compare.CacheMostlyHit, report.CacheStats{Hit: 5, Miss: 1, Known: known}},
		{"mostly miss", compare.CacheMostlyMiss, report.CacheStats{Hit: 1, Miss: 5, Known: known}},
		{"mixed", compare.CacheMixed, report.CacheStats{Hit: 3, Miss: 3, Known: known}},
	}
	for _, a := range states {
		for _, b := range states {
			if a.word == b.word {
				continue
			}
			res := &compare.Result{}
			res.CompareCaches(&report.CompileReport{Caches: report.Caches{"fx_graph": a.stats}}, &report.CompileReport{Caches: report.Caches{"fx_graph": b.stats}})
			pair := a.word + " → " + b.word
			if len(res.Caches) != 1 {
				t.Fatalf("%s: caches %+v", pair, res.Caches)
			}
			if c := res.Caches[0]; c.From != a.state || c.To != b.state || c.Change() != pair {
				t.Errorf("%s: from %v to %v, %q", pair, c.From, c.To, c.Change())
			}
			var j struct {
				Change string `json:"change"`
				From   string `json:"from"`
				To     string `json:"to"`
			}
			raw, err := json.Marshal(res.Caches[0])
			if err != nil || json.Unmarshal(raw, &j) != nil || j.Change != pair || j.From != a.word || j.To != b.word {
				t.Errorf("%s: JSON %s (%v)", pair, raw, err)
			}
			var cause string
			switch {
			case b.word == "none":
				cause = "no lookup in B: caches off or not reached"
			case b.word == "bypass":
				cause = "B bypassed the cache: Cannot cache a graph with freezing enabled"
			case a.word == "bypass":
				cause = "A bypassed the cache: Cannot cache a graph with freezing enabled; B looked it up"
			case compare.HitShare(b.stats) > compare.HitShare(a.stats) && (b.word == "hit" || b.word == "mostly hit"):
				cause = "warm start: the entries an earlier run wrote"
			case compare.HitShare(b.stats) > compare.HitShare(a.stats): // a few more hits: a cold run reuses its own entries too (g07's 3 of 22)
				cause = fmt.Sprintf("more of B's lookups hit (%d of %d): an earlier run's entries, or B's own reused", b.stats.Hit, b.stats.Lookups())
			default: // as many hits or fewer: B did not find what it looked up
				cause = "entries not found, no recorded setting differs"
			}
			v, _ := res.DecideVerdict()
			if !strings.Contains(v, "FX graph cache "+pair+" ("+cause) {
				t.Errorf("%s: verdict %q, want the cause %q", pair, v, cause)
			}
			if (a.word == "bypass" || b.word == "bypass") && (strings.Contains(v, "not found") || strings.Contains(v, "warm start")) {
				t.Errorf("%s: a bypass read as a lookup: %q", pair, v)
			}
			// a cold and a warm start: one side hit (all or most), the other missed (all or most)
			hits := func(w string) bool { return w == "hit" || w == "mostly hit" }
			misses := func(w string) bool { return w == "miss" || w == "mostly miss" }
			res.NotePhases()
			if cold := hits(a.word) && misses(b.word) || misses(a.word) && hits(b.word); cold != (res.PhaseNote != "") {
				t.Errorf("%s: phase note %q", pair, res.PhaseNote)
			}
			var back compare.CacheChange
			if err := json.Unmarshal(raw, &back); err != nil || back.From != a.state || back.To != b.state {
				t.Errorf("%s: read back %+v (%v)", pair, back, err)
			}
		}
	}
}
