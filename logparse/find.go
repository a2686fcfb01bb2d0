package logparse

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Discover expands paths (files, directories, "-") into inputs. Directories are walked: TORCH_TRACE files,
// torchrun --log-dir trees and *.log / *.txt / *.out / *.err files are taken; a run directory's combined.log is
// skipped when its stdout.log or stderr.log is there (same bytes).
func Discover(paths []string) ([]Input, error) {
	f, err := Find(paths)
	return f.Inputs, err
}

// Found is what Find made of the paths a command was given.
type Found struct {
	// Paths are the paths given, less those that name the same file or directory as one before them.
	Paths  []string
	Inputs []Input
	// Skipped lists the log-named entries of the walked directories that are not regular files (a FIFO would
	// block, a device never ends): FIFOs, devices, sockets, directories and links to them or to nothing.
	Skipped []Skip
	// TextOnly: every input is a regular file that does not start like a TORCH_TRACE file, so no record will
	// come from a trace (a consumer need not remember text events to drop their trace twins). False, untold,
	// past maxSniffed inputs.
	TextOnly bool
	// Aliases are paths that name a file already among Inputs (a symbolic or hard link to it, the same path given
	// twice, a file named and inside a directory named): each file is read once, or its records count twice.
	Aliases []Alias
}

// Alias is a path that names the same file as an input, or a file whose lines an input holds again.
type Alias struct {
	Path   string // the path that was not read
	SameAs string // the input's path, read instead
	// Copy: Path is a torchrun --log-dir rank file and SameAs the console copy of the same run, where --tee
	// printed each of its lines again (teeCopies).
	Copy bool
	// SameBytes: Path is another file with the bytes of SameAs (a copy: sameBytes).
	SameBytes bool
}

// Skip is an entry of a walked directory that was not read, and why.
type Skip struct {
	Path string
	// Why: SkipFIFO, SkipSocket, SkipDevice, SkipDirectory (what the entry is, or what its link names),
	// SkipDanglingLink (a link to nothing, or one that cannot be followed) or SkipOther.
	Why string
}

// Why a walked entry was skipped (Skip.Why; the report's evidence.skipped says the same words).
const (
	SkipFIFO         = "fifo"
	SkipSocket       = "socket"
	SkipDevice       = "device"
	SkipDirectory    = "directory"
	SkipDanglingLink = "dangling_link"
	SkipOther        = "not_regular"
)

// Find is Discover that also says what it left out. A link to a regular file is taken; a path named on its own
// is taken unless it is a device (other than /dev/null). A file reached by several paths is read once, under
// its own name when the others are symbolic links to it.
func Find(paths []string) (Found, error) {
	var out []Input
	var skipped []Skip
	paths, named := distinctPaths(paths)
	for _, p := range paths {
		if p == "-" {
			out = append(out, Input{Name: "-", Path: "-", Rank: -1})
			continue
		}
		dir, err := statNamed(p)
		if err != nil {
			return Found{}, err
		}
		if !dir {
			out = append(out, inputFor(p))
			continue
		}
		var found []Input
		err = walkLogs(p, func(path string, why string) error {
			if why == "" {
				found = append(found, inputFor(path))
			} else {
				skipped = append(skipped, Skip{Path: path, Why: why})
			}
			return nil
		})
		if err != nil {
			return Found{}, err
		}
		if len(found) == 0 {
			return Found{}, noLogsErr(p)
		}
		sort.Slice(found, func(i, j int) bool { return found[i].Path < found[j].Path })
		out = append(out, found...)
	}
	inputs, aliases, stats := readOnce(out)
	inputs, copied := sameBytes(inputs, stats)
	inputs, teed := teeCopies(inputs)
	aliases = append(append(aliases, copied...), teed...)
	// what TextOnly saves grows with the records of a few large inputs; opening every one of thousands of small
	// ones to tell costs more than it saves (5,000 files: 50 ms), so past maxSniffed it is not told
	head := make([]byte, headSize)
	textOnly := len(inputs) <= maxSniffed &&
		!slices.ContainsFunc(inputs, func(in Input) bool { return in.Trace || !textFile(in.Path, stats[in.Path], head) })
	return Found{Paths: paths, Inputs: inputs, TextOnly: textOnly, Skipped: skipped, Aliases: append(named, aliases...)}, nil
}

// maxSniffed is the most inputs Find opens to tell TextOnly.
const maxSniffed = 64

// textFile reports a regular file (st, as Find found it) whose start is not a TORCH_TRACE file's (ParseInput
// makes the same test). Standard input and pipes are not read here: they may be traces.
func textFile(path string, st os.FileInfo, head []byte) bool {
	if st == nil || !st.Mode().IsRegular() { // opening a FIFO waits
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	n, _ := f.ReadAt(head, 0)
	return !SniffTrace(head[:n])
}

// readOnce keeps one input per file (see once), and says what each kept path is (nil for standard input and
// paths that cannot be read).
func readOnce(in []Input) ([]Input, []Alias, map[string]os.FileInfo) {
	return once(in, func(x Input) string { return x.Path })
}

// distinctPaths drops the paths that name the same file or directory as a path before them: see once.
func distinctPaths(paths []string) ([]string, []Alias) {
	out, aliases, _ := once(paths, func(p string) string { return p })
	return out, aliases
}

// once keeps one item per file or directory, in order: a later path to one already kept becomes an alias of
// it, unless the kept path is a symbolic link and the later one is not (the file's own name is kept then).
// Standard input and paths that cannot be read now stay (reading them says what is wrong).
func once[T any](items []T, path func(T) string) ([]T, []Alias, map[string]os.FileInfo) {
	type kept struct {
		st   os.FileInfo
		link bool
	}
	var out []T
	var info []kept
	var aliases []Alias
	alias := func(a Alias) {
		if !slices.Contains(aliases, a) {
			aliases = append(aliases, a)
		}
	}
	byID := map[fileID][]int{} // indexes of out
	for _, x := range items {
		p := path(x)
		st, err := os.Stat(p)
		if p == "-" || err != nil {
			out, info = append(out, x), append(info, kept{})
			continue
		}
		lst, err := os.Lstat(p)
		link := err == nil && lst.Mode()&fs.ModeSymlink != 0
		id := idOf(st)
		dup := slices.IndexFunc(byID[id], func(j int) bool { return os.SameFile(info[j].st, st) })
		switch {
		case dup < 0:
			byID[id] = append(byID[id], len(out))
			out, info = append(out, x), append(info, kept{st, link})
		case info[byID[id][dup]].link && !link:
			j := byID[id][dup]
			was := path(out[j])
			for i := range aliases {
				if aliases[i].SameAs == was {
					aliases[i].SameAs = p
				}
			}
			alias(Alias{Path: was, SameAs: p})
			out[j], info[j] = x, kept{st, false}
		default:
			alias(Alias{Path: p, SameAs: path(out[byID[id][dup]])})
		}
	}
	stats := make(map[string]os.FileInfo, len(out))
	for i, x := range out {
		stats[path(x)] = info[i].st
	}
	return out, aliases, stats
}

func wantFile(path string) bool {
	base := filepath.Base(path)
	if IsTraceFile(base) {
		return true
	}
	if base == "combined.log" {
		dir := filepath.Dir(path)
		for _, s := range []string{"stdout.log", "stderr.log"} {
			if _, err := os.Stat(filepath.Join(dir, s)); err == nil {
				return false
			}
		}
		return true
	}
	switch strings.ToLower(filepath.Ext(base)) {
	case ".log", ".txt", ".out", ".err":
		return true
	}
	return base == "stdout" || base == "stderr"
}

func unwrapPathErr(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// CheckPath says why Find would refuse the path p, without reading a log: it cannot be read, it is a device, or
// it is a directory without a log file. A directory is walked up to its first log file only.
func CheckPath(p string) error {
	if p == "-" {
		return nil
	}
	dir, err := statNamed(p)
	if err != nil || !dir {
		return err
	}
	found := false
	err = walkLogs(p, func(_ string, why string) error {
		if found = why == ""; found {
			return filepath.SkipAll
		}
		return nil
	})
	switch {
	case err != nil:
		return err
	case !found:
		return noLogsErr(p)
	}
	return nil
}

// statNamed checks a path named on its own (a file, a link to one or a directory) and says whether it is a
// directory. A device other than /dev/null is refused: /dev/zero or a disk would never end.
func statNamed(p string) (dir bool, err error) {
	st, err := os.Stat(p)
	if err != nil {
		return false, fmt.Errorf("cannot read %s: %w", p, unwrapPathErr(err))
	}
	if st.Mode()&fs.ModeDevice != 0 && p != os.DevNull {
		return false, fmt.Errorf("%s %w", p, ErrDevice)
	}
	return st.IsDir(), nil
}

// walkLogs calls each for every file under the directory p whose name a log may have (wantFile), in lexical
// order; why is "" for a regular file or a link to one, else why the entry is not to be read (skipWhy: a FIFO, a
// device, a dangling link). Probe directories of a run are not walked.
func walkLogs(p string, each func(path string, why string) error) error {
	err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != p && d.Name() == "probe" {
				return filepath.SkipDir
			}
			return nil
		}
		if !wantFile(path) {
			return nil
		}
		why := ""
		if !d.Type().IsRegular() {
			why = skipWhy(path)
		}
		return each(path, why)
	})
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", p, unwrapPathErr(err))
	}
	return nil
}

// skipWhy says why the entry at path, not a regular file itself, is not read: "" when it is a link to a regular
// file, else what it is, or what its link names (a Skip's Why).
func skipWhy(path string) string {
	st, err := os.Stat(path) // follows a link
	switch {
	case err != nil:
		return SkipDanglingLink
	case st.Mode().IsRegular():
		return ""
	}
	switch m := st.Mode(); {
	case m&fs.ModeNamedPipe != 0:
		return SkipFIFO
	case m&fs.ModeSocket != 0:
		return SkipSocket
	case m&fs.ModeDevice != 0:
		return SkipDevice
	case m.IsDir():
		return SkipDirectory
	}
	return SkipOther
}

// ErrDevice is the error of a path named on its own that is a device (statNamed).
var ErrDevice = errors.New("is a device, not a log file")

func noLogsErr(dir string) error {
	return fmt.Errorf("%s: no log files found (looked for *.log, *.txt, stdout/stderr and TORCH_TRACE files)", dir)
}
