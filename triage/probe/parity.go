package probe

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
)

// IsPerRankEnv: these variables are set per worker by launchers and differ between ranks by
// design; they stay out of EnvHash and config parity (sitecustomize.py has the same list).
func IsPerRankEnv(name string) bool {
	return name == "CUDA_VISIBLE_DEVICES" || name == "TORCHELASTIC_ERROR_FILE"
}

// envHash is the probe's env_hash: sha256 over the NAME=value lines of
// env sorted by name (joined by "\n"), leaving out the per-rank names.
func envHash(env map[string]string) string {
	var names []string
	for k := range env {
		if !IsPerRankEnv(k) {
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
