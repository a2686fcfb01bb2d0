package runs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// Resolve is the run directory a command-line argument names in store (DefaultStoreDir when ""): a run number
// ("3": its run 0003-…) or a run's name as every message gives it ("0003-breaks"), unless a path of that name is
// here. Any other argument (a path, "-") passes unchanged; a number or name of no run in the store is an error.
func Resolve(arg, store string) (string, error) {
	if store == "" {
		store = DefaultStoreDir
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 {
		// a run's name as every message gives it ("0003-breaks"), unless a path of that name is here
		if _, serr := os.Stat(arg); serr != nil && IsRunDirName(arg) {
			if dir := filepath.Join(store, arg); isDir(dir) {
				return dir, nil
			}
			return "", fmt.Errorf("no file %s and no run %s in %s", arg, arg, store)
		}
		return arg, nil
	}
	if _, err := os.Stat(arg); err == nil {
		return arg, nil
	}
	matches, _ := filepath.Glob(filepath.Join(store, fmt.Sprintf("%04d-*", n)))
	if len(matches) == 0 {
		return "", fmt.Errorf("no file %s and no run %d in %s", arg, n, store)
	}
	return matches[0], nil
}

// FindRun is the run directory arg names (Resolve), which must be a run: a directory with a meta.json.
func FindRun(arg, store string) (string, error) {
	dir, err := Resolve(arg, store)
	if err != nil {
		return "", err
	}
	if _, err := LoadRun(dir); errors.Is(err, fs.ErrNotExist) { // a directory, a file, nothing: no run either way
		if store == "" {
			store = DefaultStoreDir
		}
		return "", fmt.Errorf("%s is not a run: no run directory with a meta.json (a run number, or a directory under %s)", arg, store)
	} else if err != nil {
		return "", err
	}
	return dir, nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
