package report

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/torchtriage/torchtriage/triage/probe"
)

// Missing is how ConfigParity renders a key that a rank does not have.
const Missing = "(unset)"

// Difference is one setting that is not the same on every rank: Values maps
// each rendered value (JSON for config, the raw string for env, Missing when
// absent) to the sorted ranks that have it.
type Difference struct {
	Key    string
	Values map[string][]int
}

// ConfigParity compares the settings that must match across ranks: the
// versions ("version.torch", "version.python", "version.cuda"), every Config
// key ("dynamo.*", "inductor.*", "torch.*") and every Env variable ("env.NAME")
// except the per-rank ones. A key missing on some ranks is a difference. The
// result is sorted by key; its size grows with the number of distinct values,
// not with the number of ranks. Fewer than two infos give nil.
func ConfigParity(infos []ProcessInfo) []Difference {
	if len(infos) < 2 {
		return nil
	}
	values := make([]map[string]string, len(infos))
	keys := map[string]bool{}
	for i, info := range infos {
		values[i] = Settings(info)
		for k := range values[i] {
			keys[k] = true
		}
	}
	var diffs []Difference
	for _, key := range SortedStrings(keys) {
		groups := map[string][]int{}
		for i, info := range infos {
			v, ok := values[i][key]
			switch {
			case !ok && !recorded(info, key):
				continue // this process recorded nothing of the kind (it never compiled, or died first): unknown
			case !ok:
				v = Missing
			case v == "" && strings.HasPrefix(key, "version."):
				continue
			}
			groups[v] = AppendRank(groups[v], info.Rank)
		}
		if len(groups) > 1 {
			diffs = append(diffs, Difference{Key: key, Values: groups})
		}
	}
	return diffs
}

// String renders a difference on one line, e.g.
// `dynamo.recompile_limit: 8 on ranks 0,1; 3 on rank 2`.
func (d Difference) String() string {
	vals := make([]string, 0, len(d.Values))
	for v := range d.Values {
		vals = append(vals, v)
	}
	sort.Slice(vals, func(i, j int) bool { return d.Values[vals[i]][0] < d.Values[vals[j]][0] })
	parts := make([]string, len(vals))
	for i, v := range vals {
		ranks := d.Values[v]
		word := "rank"
		if len(ranks) > 1 {
			word = "ranks"
		}
		strs := make([]string, len(ranks))
		for j, r := range ranks {
			strs[j] = fmt.Sprint(r)
		}
		parts[i] = fmt.Sprintf("%s on %s %s", v, word, strings.Join(strs, ","))
	}
	return d.Key + ": " + strings.Join(parts, "; ")
}

// recorded reports whether a process recorded settings of key's kind at all: a config key needs its config,
// an env key its environment (an unset variable in a recorded environment is a real difference).
func recorded(info ProcessInfo, key string) bool {
	if strings.HasPrefix(key, "env.") {
		return len(info.Env) > 0
	}
	// a config key of a module the process recorded (it imported it): "inductor.x" only where some "inductor."
	// key is; a rank that compiled nothing never loaded Inductor's config
	mod, _, _ := strings.Cut(key, ".")
	for k := range info.Config {
		if strings.HasPrefix(k, mod+".") {
			return true
		}
	}
	return false
}

func Settings(info ProcessInfo) map[string]string {
	out := map[string]string{
		"version.torch":  info.Torch,
		"version.python": info.Python,
		"version.cuda":   info.CUDA,
	}
	for k, v := range info.Config {
		data, err := json.Marshal(v)
		if err != nil {
			data = []byte(fmt.Sprint(v))
		}
		out[k] = string(data)
	}
	for k, v := range info.Env {
		if !probe.IsPerRankEnv(k) {
			out["env."+k] = v
		}
	}
	return out
}

func AppendRank(ranks []int, r int) []int {
	i := sort.SearchInts(ranks, r)
	if i < len(ranks) && ranks[i] == r {
		return ranks
	}
	ranks = append(ranks, 0)
	copy(ranks[i+1:], ranks[i:])
	ranks[i] = r
	return ranks
}
