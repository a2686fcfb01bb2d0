package runs

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// MinifiedDir is the folder of a run where the ladder keeps what PyTorch's minifier and compiler bisector made of
// it: the minified repro.py and verdict.json (Minified). bundle packs it.
const MinifiedDir = "minified"

// Minified is <run>/minified/verdict.json: what the minifier and the bisector found, in words true for each
// ("minified from 10 to 3 nodes in 14 queries: …; it reproduces the failure", "the bisector blames the inductor
// backend, subsystem `lowerings` at number 2: relu"); "" where a tool did not run.
type Minified struct {
	Repro    string `json:"repro,omitempty"` // the minified repro's name in MinifiedDir ("repro.py"); "" when none was written
	Minifier string `json:"minifier,omitempty"`
	Bisector string `json:"bisector,omitempty"`
}

// ReadMinified reads a run's minified/verdict.json; ok is false when there is none.
func ReadMinified(runDir string) (Minified, bool) {
	var m Minified
	data, err := os.ReadFile(filepath.Join(runDir, MinifiedDir, "verdict.json"))
	if err != nil || json.Unmarshal(data, &m) != nil {
		return Minified{}, false
	}
	return m, true
}

// WriteMinified writes a run's minified/verdict.json.
func WriteMinified(runDir string, m Minified) error {
	dir := filepath.Join(runDir, MinifiedDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "verdict.json"), append(data, '\n'), 0o644)
}
