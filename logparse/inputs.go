package logparse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Input is one stream to parse.
type Input struct {
	Name   string // shown in records and reports
	Path   string // file path, or "-" for standard input
	Trace  bool   // a TORCH_TRACE structured file
	Rank   int    // rank from the file name or the torchrun log tree, -1 when unknown
	Stream string // "stdout"/"stderr" when the file holds one stream
}

var (
	rankInName = regexp.MustCompile(`(?i)rank[_-]?(\d+)`)
	attemptDir = regexp.MustCompile(`attempt_\d+$`)
)

// IsTraceFile reports a TORCH_TRACE file name.
func IsTraceFile(name string) bool {
	return strings.HasPrefix(filepath.Base(name), "dedicated_log_torch_trace")
}

// inputFor describes one file.
func inputFor(path string) Input {
	in := Input{Name: path, Path: path, Trace: IsTraceFile(path), Rank: -1}
	base := filepath.Base(path)
	if m := rankInName.FindStringSubmatch(base); m != nil {
		in.Rank, _ = strconv.Atoi(m[1])
	}
	if stem := strings.TrimSuffix(base, filepath.Ext(base)); stem == "stdout" || stem == "stderr" {
		in.Stream = stem
		if n, ok := logDirRank(path); ok { // torchrun --log-dir: its local rank
			in.Rank = n
		}
	}
	return in
}

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
	Skipped []string
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
}

// Find is Discover that also says what it left out. A link to a regular file is taken; a path named on its own
// is taken unless it is a device (other than /dev/null). A file reached by several paths is read once, under
// its own name when the others are symbolic links to it.
func Find(paths []string) (Found, error) {
	var out []Input
	var skipped []string
	paths, named := distinctPaths(paths)
	for _, p := range paths {
		if p == "-" {
			out = append(out, Input{Name: "-", Path: "-", Rank: -1})
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return Found{}, fmt.Errorf("cannot read %s: %w", p, unwrapPathErr(err))
		}
		if st.Mode()&fs.ModeDevice != 0 && p != os.DevNull { // /dev/zero, a disk: it would never end
			return Found{}, fmt.Errorf("%s is a device, not a log file (give - to read standard input)", p)
		}
		if !st.IsDir() {
			out = append(out, inputFor(p))
			continue
		}
		var found []Input
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
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
			if !d.Type().IsRegular() {
				if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() { // follows a link
					skipped = append(skipped, path)
					return nil
				}
			}
			found = append(found, inputFor(path))
			return nil
		})
		if err != nil {
			return Found{}, fmt.Errorf("cannot read %s: %w", p, unwrapPathErr(err))
		}
		if len(found) == 0 {
			return Found{}, fmt.Errorf("%s: no log files found (looked for *.log, *.txt, stdout/stderr and TORCH_TRACE files)", p)
		}
		sort.Slice(found, func(i, j int) bool { return found[i].Path < found[j].Path })
		out = append(out, found...)
	}
	inputs, aliases := readOnce(out)
	inputs, copies := teeCopies(inputs)
	aliases = append(aliases, copies...)
	// what TextOnly saves grows with the records of a few large inputs; opening every one of thousands of small
	// ones to tell costs more than it saves (5,000 files: 50 ms), so past maxSniffed it is not told
	head := make([]byte, headSize)
	textOnly := len(inputs) <= maxSniffed &&
		!slices.ContainsFunc(inputs, func(in Input) bool { return in.Trace || !textFile(in.Path, head) })
	return Found{Paths: paths, Inputs: inputs, TextOnly: textOnly, Skipped: skipped, Aliases: append(named, aliases...)}, nil
}

// maxSniffed is the most inputs Find opens to tell TextOnly.
const maxSniffed = 64

// textFile reports a regular file whose start is not a TORCH_TRACE file's (ParseInput makes the same test).
// Standard input and pipes are not read here: they may be traces.
func textFile(path string, head []byte) bool {
	if st, err := os.Stat(path); path == "-" || err != nil || !st.Mode().IsRegular() { // opening a FIFO waits
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

// readOnce keeps one input per file: see once.
func readOnce(in []Input) ([]Input, []Alias) { return once(in, func(x Input) string { return x.Path }) }

// distinctPaths drops the paths that name the same file or directory as a path before them: see once.
func distinctPaths(paths []string) ([]string, []Alias) {
	return once(paths, func(p string) string { return p })
}

// once keeps one item per file or directory, in order: a later path to one already kept becomes an alias of
// it, unless the kept path is a symbolic link and the later one is not (the file's own name is kept then).
// Standard input and paths that cannot be read now stay (reading them says what is wrong).
func once[T any](items []T, path func(T) string) ([]T, []Alias) {
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
	return out, aliases
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

// Sink receives what parsing inputs yields; its functions are called from many goroutines.
type Sink struct {
	Emit      func(*Record)
	OnRank    func(rank int) // every rank seen in line prefixes (optional)
	OnWarning func(string)   // an input that is readable but looks wrong, e.g. binary (optional)
	OnFacts   func(Facts)    // what each input's lines showed beyond its records (optional)
	memo      *breakMemo     // set by ParseInputs: one for all its inputs
}

// ParseInputs parses inputs concurrently (at most workers at once). It returns one error per input that could
// not be read, in input order; the others are still parsed. With keepText false, records of no known kind are
// not built (counting mode).
//
// The records reach sink.Emit in input order, all of the first input's, then the second's, and so on, each
// input's in its own order, and from the calling goroutine only: what the consumer makes of them (which
// records are its evidence, samples and first failures) is the same on every run, whichever input parsed
// faster. A later input's records wait in batches until the inputs before it are done; its parse waits once
// aheadBatches batches are waiting. OnFacts comes after an input's last record.
func ParseInputs(inputs []Input, workers int, keepText bool, stdin io.Reader, sink Sink) []error {
	if workers <= 0 {
		workers = 8
	}
	if sink.memo == nil && !keepText {
		sink.memo = newBreakMemo()
	}
	outs := make([]chan []*Record, len(inputs))
	facts := make([][]Facts, len(inputs))
	errs := make([]error, len(inputs))
	for i := range outs {
		outs[i] = make(chan []*Record, aheadBatches)
	}
	sem := make(chan struct{}, workers)
	go func() {
		for i, in := range inputs { // started in order: the input the caller waits for is always running
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				s := sink
				var batch []*Record // made at the first record: most small inputs have none
				s.Emit = func(r *Record) {
					if batch == nil {
						batch = make([]*Record, 0, batchRecords)
					}
					if batch = append(batch, r); len(batch) == batchRecords {
						outs[i] <- batch
						batch = nil
					}
				}
				if sink.OnFacts != nil {
					s.OnFacts = func(f Facts) { facts[i] = append(facts[i], f) }
				}
				errs[i] = ParseInput(in, keepText, stdin, s)
				if len(batch) > 0 {
					outs[i] <- batch
				}
				close(outs[i])
			}()
		}
	}()
	for i := range inputs {
		for batch := range outs[i] {
			for _, r := range batch {
				sink.Emit(r)
			}
		}
		for _, f := range facts[i] { // written before outs[i] was closed
			sink.OnFacts(f)
		}
	}
	var out []error
	for _, err := range errs {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

// How many records go to ParseInputs's caller at once, and how many such batches an input parsed ahead of its
// turn may hold before its parse waits.
const (
	batchRecords = 256
	aheadBatches = 4
)

// ParseInput parses one input.
func ParseInput(in Input, keepText bool, stdin io.Reader, sink Sink) error {
	opt := Options{Input: in.Name, Stream: in.Stream, Rank: in.Rank, KeepText: keepText, SkipOther: !keepText,
		OnRank: sink.OnRank, OnFacts: sink.OnFacts, memo: sink.memo}
	emit := sink.Emit
	warnIfBinary := func(head []byte) {
		if sink.OnWarning != nil && LooksBinary(head) {
			sink.OnWarning(in.Name + ": looks like a binary file, not a text log; parsed what text it has")
		}
	}
	var r io.Reader
	if in.Path == "-" {
		if stdin == nil {
			stdin = os.Stdin
		}
		r = stdin
	} else {
		f, err := os.Open(in.Path)
		if err != nil {
			return fmt.Errorf("cannot read %s: %w", in.Path, unwrapPathErr(err))
		}
		defer f.Close()
		st, err := f.Stat()
		changed := false // the file shrank under the memory maps
		if err == nil && st.Mode().IsRegular() && sink.OnWarning != nil {
			defer func() {
				if now, err := f.Stat(); changed || err == nil && now.Size() < st.Size() {
					sink.OnWarning(in.Name + " changed while being read (truncated or rewritten); parsed what was read")
				}
			}()
		}
		if err == nil && st.Mode().IsRegular() && !keepText && !in.Trace {
			head := make([]byte, headSize)
			n, _ := f.ReadAt(head, 0)
			warnIfBinary(head[:n])
			if !SniffTrace(head[:n]) {
				err := ParseFileParallel(f, st.Size(), min(runtime.GOMAXPROCS(0), 8), opt, emit)
				changed = errors.Is(err, errChanged)
				if err != nil && !changed {
					return fmt.Errorf("reading %s: %w", in.Name, err)
				}
				return nil
			}
		}
		r = f
	}
	br := bufio.NewReaderSize(r, 64<<10)
	r = br
	head, _ := br.Peek(headSize)
	if in.Path == "-" || keepText || in.Trace {
		warnIfBinary(head) // the parallel path above already looked
	}
	if !in.Trace {
		in.Trace = SniffTrace(head)
	}
	var err error
	if in.Trace {
		err = ParseTrace(r, opt, emit)
	} else {
		err = Parse(r, opt, emit)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", in.Name, err)
	}
	return nil
}

// headSize is how much of an input's start is read to tell a trace or a binary file.
const headSize = 8192

// SniffTrace reports whether the start of a stream is a TORCH_TRACE file: its first line is a glog prefix
// followed by a JSON object.
func SniffTrace(head []byte) bool {
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line = head[:i]
	}
	var li lineInfo
	return parseGlog(line, &li) && len(li.body) > 1 && li.body[0] == '{' && li.body[1] == '"'
}

// LooksBinary reports whether the start of a file is not text (many NUL or control bytes).
func LooksBinary(head []byte) bool {
	if len(head) == 0 {
		return false
	}
	bad := bytes.Count(head, []byte{0})
	for _, c := range head {
		if c < 0x09 || (c > 0x0d && c < 0x20 && c != 0x1b) {
			bad++
		}
	}
	return bad*10 > len(head)
}
