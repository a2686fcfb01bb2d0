package probe

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// modulesFile is what the probe writes at exit as modules-<pid>.json: the .py files of the user modules the
// process imported from under its start directory or its script's directory (not site-packages, not torch, not
// the standard library).
type modulesFile struct {
	PID   int      `json:"pid"`
	Files []string `json:"files"`
}

// ImportedFiles lists, sorted and once each, the user module files the run's processes imported (every
// modules-<pid>.json of the run's probe directory); unreadable files are left out.
func ImportedFiles(runDir string) []string {
	entries, err := os.ReadDir(Dir(runDir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, "modules-") || !strings.HasSuffix(name, ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(Dir(runDir), name))
		if err != nil {
			continue
		}
		var m modulesFile
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		for _, f := range m.Files {
			if filepath.IsAbs(f) && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	slices.Sort(out)
	return out
}
