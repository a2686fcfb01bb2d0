package probe

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
)

// envHash is the probe's env_hash: sha256 over the NAME=value lines of
// env sorted by name (joined by "\n"), leaving out the per-rank names.
func envHash(env map[string]string) string {
	var names []string
	for k := range env {
		if !triage.IsPerRankEnv(k) {
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
