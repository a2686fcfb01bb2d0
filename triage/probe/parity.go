package probe

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Missing is how ConfigParity renders a key that a rank does not have.
const Missing = "(unset)"

// perRankEnv are set per worker by launchers and differ between ranks by
// design; they stay out of EnvHash and ConfigParity (the probe's Python side
// has the same list).
var perRankEnv = map[string]bool{"CUDA_VISIBLE_DEVICES": true, "TORCHELASTIC_ERROR_FILE": true}

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
func ConfigParity(infos []Info) []Difference {
	if len(infos) < 2 {
		return nil
	}
	values := make([]map[string]string, len(infos))
	keys := map[string]bool{}
	for i, info := range infos {
		values[i] = settings(info)
		for k := range values[i] {
			keys[k] = true
		}
	}
	var diffs []Difference
	for _, key := range sortedKeys(keys) {
		groups := map[string][]int{}
		for i, info := range infos {
			v, ok := values[i][key]
			if !ok {
				v = Missing
			}
			groups[v] = appendRank(groups[v], info.Rank)
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

func settings(info Info) map[string]string {
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
		if !perRankEnv[k] {
			out["env."+k] = v
		}
	}
	return out
}

// envHash is the probe's env_hash: sha256 over the NAME=value lines of
// env sorted by name (joined by "\n"), leaving out the per-rank names.
func envHash(env map[string]string) string {
	var names []string
	for k := range env {
		if !perRankEnv[k] {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	lines := make([]string, len(names))
	for i, k := range names {
		lines[i] = k + "=" + env[k]
	}
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:])
}

func appendRank(ranks []int, r int) []int {
	i := sort.SearchInts(ranks, r)
	if i < len(ranks) && ranks[i] == r {
		return ranks
	}
	ranks = append(ranks, 0)
	copy(ranks[i+1:], ranks[i:])
	ranks[i] = r
	return ranks
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
