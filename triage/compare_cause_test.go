package triage

import (
	"strings"
	"testing"
)

// Why a cache changed state follows the direction of the change (exploratory runs on real 2.14.1: a warm start
// under a new TORCH_COMPILE_JOB_ID read "miss → hit (key changed: TORCH_COMPILE_JOB_ID …)", a changed key only ever
// misses; a cold start beside a changed inductor setting read "entries not found: a fresh or cleared cache dir" with
// the same cache dir; 2.14.1 → 2.6 read "hit → none (key changed: torch version …)", where 2.6 made no lookup).
func TestCacheCauseFollowsTheDirection(t *testing.T) {
	jobID := Change{Key: "env.TORCH_COMPILE_JOB_ID", A: "(unset)", B: "x", Knob: true, Cache: true}
	nan := Change{Key: "env.TORCHINDUCTOR_NAN_ASSERTS", A: "(unset)", B: "1"}
	torch := Change{Key: "version.torch", A: "2.14.1+debian", B: "2.6.0+debian", Cache: true}
	for _, c := range []struct {
		name        string
		settings    []Change
		versions    []Change
		cache, from string
		want, bad   string
	}{
		{"warm under a new job id", []Change{jobID}, nil, "fx_graph", "miss → hit", "warm start", "key changed"},
		{"job id keys PGO only", []Change{jobID}, nil, "fx_graph", "hit → miss", "no recorded setting differs", "JOB_ID"},
		{"job id keys PGO", []Change{jobID}, nil, "pgo", "hit → miss", "key changed: TORCH_COMPILE_JOB_ID", ""},
		{"an inductor setting is in the key", []Change{nan}, nil, "fx_graph", "hit → miss", "key changed: TORCHINDUCTOR_NAN_ASSERTS: (unset) → 1", "fresh"},
		{"no lookup on another torch", nil, []Change{torch}, "aot_autograd", "hit → none", "no lookup in B", "key changed"},
		{"a new torch misses", nil, []Change{torch}, "fx_graph", "hit → miss", "key changed: torch version", ""},
	} {
		res := &CompareResult{Settings: c.settings, Versions: c.versions}
		got := res.cacheCause(CacheChange{Cache: c.cache, Change: c.from})
		if !strings.Contains(got, c.want) || c.bad != "" && strings.Contains(got, c.bad) {
			t.Errorf("%s: %q", c.name, got)
		}
	}
}
