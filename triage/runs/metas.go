package runs

import (
	"os"
	"path/filepath"
)

// Metas is what LoadRun gave for each directory asked of (is it a run, and its meta.json), so that a command
// reads each run's meta.json once and hands the same Meta to every step that asks. The nil Metas reads it at each
// ask.
type Metas map[string]metaRead

type metaRead struct {
	meta Meta
	err  error
}

// Load is LoadRun(dir), read once per dir.
func (ms Metas) Load(dir string) (Meta, error) {
	if ms == nil {
		return LoadRun(dir)
	}
	if r, ok := ms[dir]; ok {
		return r.meta, r.err
	}
	m, err := LoadRun(dir)
	ms[dir] = metaRead{m, err}
	return m, err
}

// OneRunOf is the one run directory of a run store that holds exactly one (and no other entry), "" for anything
// else: a run directory itself, a store of several runs, a directory of logs. Read as plain logs, that run's
// meta.json and probe files would be lost: it is the run.
func (ms Metas) OneRunOf(dir string) string {
	if _, err := ms.Load(dir); err == nil {
		return ""
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 || !entries[0].IsDir() {
		return ""
	}
	sub := filepath.Join(dir, entries[0].Name())
	if _, err := ms.Load(sub); err != nil {
		return ""
	}
	return sub
}

// StoreRuns counts the runs directly under dir, as a run store holds them, and names the last; 0 for a directory
// that holds none and for what is no directory (or cannot be read).
func (ms Metas) StoreRuns(dir string) (n int, last string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, ""
	}
	for _, e := range entries {
		if sub := filepath.Join(dir, e.Name()); e.IsDir() {
			if _, err := ms.Load(sub); err == nil {
				n, last = n+1, sub
			}
		}
	}
	return n, last
}
