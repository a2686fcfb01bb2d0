package runs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
)

// DefaultStoreDir is where runs go, relative to the working directory.
const DefaultStoreDir = ".torchtriage/runs"

// Store is a directory of numbered runs: <dir>/<seq>-<preset>/.
type Store struct {
	Dir string // absolute
}

var (
	runDirRE   = regexp.MustCompile(`^(\d{4,})-([A-Za-z0-9_.-]+)$`)
	runLabelRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
)

// IsRunDirName reports a run directory's name in a store: its number, then its label ("0003-breaks").
func IsRunDirName(name string) bool { return runDirRE.MatchString(name) }

// OpenStore opens (creating it if needed) a run store; "" means
// DefaultStoreDir under the working directory.
func OpenStore(dir string) (*Store, error) {
	if dir == "" {
		dir = DefaultStoreDir
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("run store %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("run store: %w", err)
	}
	return &Store{Dir: abs}, nil
}

// seqs returns the run numbers present, with their directory names.
func (s *Store) seqs() (map[int]string, error) {
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return nil, fmt.Errorf("run store: %w", err)
	}
	out := map[int]string{}
	for _, e := range entries {
		m := runDirRE.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		if n, err := strconv.Atoi(m[1]); err == nil {
			out[n] = e.Name()
		}
	}
	return out, nil
}

// NewRun creates the next run directory (and its trace/ and probe/ folders), named <seq>-<label> (a label that is
// no plain name is "run"). Mkdir is the lock: two tools sharing a store never get the same number.
func (s *Store) NewRun(label string) (id int, dir string, err error) {
	if !runLabelRE.MatchString(label) {
		label = "run"
	}
	present, err := s.seqs()
	if err != nil {
		return 0, "", err
	}
	next := 1
	for n := range present {
		next = max(next, n+1)
	}
	for try := 0; try < 1000; try, next = try+1, next+1 {
		dir = filepath.Join(s.Dir, fmt.Sprintf("%04d-%s", next, label))
		err = os.Mkdir(dir, 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return 0, "", fmt.Errorf("create run dir: %w", err)
		}
		for _, sub := range []string{"trace", "probe"} {
			if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
				return 0, "", fmt.Errorf("create run dir: %w", err)
			}
		}
		return next, dir, nil
	}
	return 0, "", fmt.Errorf("create run dir in %s: too many concurrent runs", s.Dir)
}

// List returns every run's meta, newest (highest number) first. A run whose
// meta.json cannot be read is listed with State "corrupt" and Error set.
func (s *Store) List() ([]Meta, error) {
	present, err := s.seqs()
	if err != nil {
		return nil, err
	}
	ids := make([]int, 0, len(present))
	for n := range present {
		ids = append(ids, n)
	}
	slices.Sort(ids)
	slices.Reverse(ids)
	out := make([]Meta, 0, len(ids))
	for _, n := range ids {
		dir := filepath.Join(s.Dir, present[n])
		m, err := LoadRun(dir)
		if err != nil {
			m = Meta{ID: n, Name: present[n], Dir: dir, State: StateCorrupt, Error: err.Error()}
		}
		out = append(out, m)
	}
	return out, nil
}

// RunDir returns the directory of run id, or an error when there is none.
func (s *Store) RunDir(id int) (string, error) {
	present, err := s.seqs()
	if err != nil {
		return "", err
	}
	name, ok := present[id]
	if !ok {
		return "", fmt.Errorf("no run %d in %s", id, s.Dir)
	}
	return filepath.Join(s.Dir, name), nil
}
