package compare

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
)

// Change is one setting or version that differs: A and B are "(unset)" when absent.
type Change struct {
	Key   string `json:"key"`
	A     string `json:"a"`
	B     string `json:"b"`
	Knob  bool   `json:"knob,omitempty"` // a compile-time or cache knob (§5 table)
	Cache bool   `json:"cache,omitempty"`
	// Tool: torchtriage set it (a preset's variable), on the side where it is set, not the user
	Tool bool `json:"tool_set,omitempty"`
}

// String renders a change as "KEY: A → B".
func (c Change) String() string {
	s := fmt.Sprintf("%s: %s → %s", strings.TrimPrefix(c.Key, "env."), c.A, c.B)
	if c.Tool {
		s += " (set by torchtriage's preset)"
	}
	return s
}

// Delta is a number in A and in B; nil where a side has none.
type Delta struct {
	What   string   `json:"what"`
	A      *float64 `json:"a,omitempty"`
	B      *float64 `json:"b,omitempty"`
	DeltaS *float64 `json:"delta_s,omitempty"`
	Ratio  *float64 `json:"ratio,omitempty"`
	CacheA string   `json:"cache_a,omitempty"` // frames: warm | cold | partial | bypass
	CacheB string   `json:"cache_b,omitempty"`
	Rank   *int     `json:"rank,omitempty"`
	Big    bool     `json:"significant"`
}

// CacheChange is one cache's lookups in A and B, and their change of state where both sides show their lookups and
// the states differ (From and To; both zero otherwise).
type CacheChange struct {
	Cache string            `json:"cache"`
	A     report.CacheStats `json:"a"`
	B     report.CacheStats `json:"b"`
	From  CacheState        `json:"from,omitempty"`
	To    CacheState        `json:"to,omitempty"`
}

// Changed reports a change of state.
func (c CacheChange) Changed() bool { return c.From != 0 && c.To != 0 && c.From != c.To }

// Change words the change of state: "miss → hit", "hit → mostly hit", "" where there is none.
func (c CacheChange) Change() string {
	if !c.Changed() {
		return ""
	}
	return c.From.String() + " → " + c.To.String()
}

// cacheChangeJSON is CacheChange's JSON: change (the words, as before from and to were written) beside from and to.
type cacheChangeJSON struct {
	Cache  string            `json:"cache"`
	A      report.CacheStats `json:"a"`
	B      report.CacheStats `json:"b"`
	Change string            `json:"change,omitempty"` // "hit → miss", "miss → hit", "" (no change of state)
	From   CacheState        `json:"from,omitempty"`
	To     CacheState        `json:"to,omitempty"`
}

// MarshalJSON writes the change with its words.
func (c CacheChange) MarshalJSON() ([]byte, error) {
	j := cacheChangeJSON{Cache: c.Cache, A: c.A, B: c.B}
	if c.Changed() {
		j.Change, j.From, j.To = c.Change(), c.From, c.To
	}
	return json.Marshal(j)
}

func delta(what string, a, b *float64, tol float64) Delta {
	d := Delta{What: what, A: report.RoundOpt(a), B: report.RoundOpt(b)}
	if a != nil && b != nil {
		d.DeltaS = report.Fptr(report.Round6(*b - *a))
		if *a > 0 {
			d.Ratio = report.Fptr(math.Round(*b / *a * 1000) / 1000)
		}
		lo := math.Min(*a, *b)
		d.Big = math.Abs(*b-*a) >= report.NoiseS && math.Abs(*b-*a) >= tol*lo
	} else {
		d.Big = (a != nil && *a >= report.NoiseS) || (b != nil && *b >= report.NoiseS)
	}
	return d
}
