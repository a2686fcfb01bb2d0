package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// compare on stored 2.14 runs (probe files recorded by torchtriage itself, testdata/compile/README.md): the
// cache-key knob is named as the cause, a knob-only change is named, cold → warm names the caches, and a run
// against itself is no difference.
func TestCompareStoredRuns(t *testing.T) {
	store := "../testdata/compile/runs-2.14"
	cases := []struct{ a, b, want string }{
		{"2", "4", "FX graph cache hit → miss (key changed: TORCH_COMPILE_CACHE_KEY_TAG: (unset) → v2)"},
		{"2", "5", "settings differ: TORCHINDUCTOR_COMPILE_THREADS: (unset) → 1"},
		{"1", "2", "FX graph cache miss → hit"},
		{"3", "3", "no difference"},
	}
	for _, c := range cases {
		code, out, errOut := runCLI("compare", "--store", store, c.a, c.b)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("compare %s %s: exit %d, want %q in\n%s%s", c.a, c.b, code, c.want, out, errOut)
		}
	}
	code, out, _ := runCLI("compare", "--store", store, "--format", "json", "1", "2")
	var res struct {
		Schema  string `json:"schema"`
		Verdict string `json:"verdict"`
		Caches  []struct {
			Cache  string         `json:"cache"`
			A      map[string]int `json:"a"`
			Change string         `json:"change"`
		} `json:"caches"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.Schema != "torchtriage.compare/v1" ||
		len(res.Caches) == 0 || res.Caches[0].Change != "miss → hit" || res.Caches[0].A["miss"] != 4 {
		t.Errorf("json: %v %+v", err, res)
	}
}

// check: a warm baseline fails the cold run on compile time (frames named); --max-compile-time and the skew.
func TestCheckCompileRules(t *testing.T) {
	dir := t.TempDir()
	base := dir + "/warm.json"
	v := "../testdata/compile/torch-2.14/"
	if code, _, errOut := runCLI("check", "--write-baseline", base, v+"c01_mlp.warm.trace"); code != 0 {
		t.Fatalf("write baseline: %d %s", code, errOut)
	}
	code, out, _ := runCLI("check", "--baseline", base, v+"c01_mlp.cold.trace")
	if code != 1 || !strings.Contains(out, "compile time of `inner` [0/0] grew") {
		t.Errorf("baseline: %d\n%s", code, out)
	}
	code, out, _ = runCLI("check", "--max-compile-skew", "2", v+"c02_dist_mlp.mixed.trace")
	if code != 1 || !strings.Contains(out, "compile skew") {
		t.Errorf("skew: %d\n%s", code, out)
	}
	code, out, _ = runCLI("check", "--max-compile-time", "1m", v+"c01_mlp.cold.trace")
	if code != 0 {
		t.Errorf("max compile time 1m: %d\n%s", code, out)
	}
}
