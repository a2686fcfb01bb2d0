package probe

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

func TestEnvHashIgnoresPerRankNames(t *testing.T) {
	a := envHash(map[string]string{"TORCH_LOGS": "x", "CUDA_VISIBLE_DEVICES": "0"})
	b := envHash(map[string]string{"TORCH_LOGS": "x", "CUDA_VISIBLE_DEVICES": "1"})
	c := envHash(map[string]string{"TORCH_LOGS": "y"})
	if a != b || a == c {
		t.Errorf("hashes %s %s %s", a, b, c)
	}
	// sorted by name, not by line: "A" sorts before "A1" although "A=" sorts after "A1=".
	if envHash(map[string]string{"TORCH_A": "1", "TORCH_A1": "2"}) != sha("TORCH_A=1\nTORCH_A1=2") {
		t.Error("lines must be sorted by variable name, as the probe does")
	}
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
