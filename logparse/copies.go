package logparse

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// logDirRank is the local rank of a torchrun --log-dir rank file: <dir>/<run>/attempt_<k>/<local rank>/{stdout,
// stderr}.log.
func logDirRank(path string) (int, bool) {
	stem := filepath.Base(path)
	stem = stem[:len(stem)-len(filepath.Ext(stem))]
	if stem != "stdout" && stem != "stderr" {
		return 0, false
	}
	dir := filepath.Dir(path)
	n, err := strconv.Atoi(filepath.Base(dir))
	if err != nil || n < 0 || !attemptDir.MatchString(filepath.Dir(dir)) {
		return 0, false
	}
	return n, true
}

// teeSample is how many non-blank lines of a rank file's start, and as many of its end, must be in the console
// copy for the file to be taken as copied there (every line, for a file of fewer).
const teeSample = 32

// teeCopies takes out the torchrun --log-dir rank files whose lines are all in another input, printed again
// behind that rank's --tee prefix ([default<local rank>]:): the console copy of the same run, read beside its
// log-dir tree, would count every record twice. A rank file's first and last teeSample non-blank lines (each
// with its time stamp and process id, when torch logged it) must all be in the other input, on its local
// rank's channel; then the file is an alias of that input. Nothing is read when no input is a rank file or
// every input is one.
func teeCopies(inputs []Input) ([]Input, []Alias) {
	type sample struct {
		rank int
		text string
	}
	type rankFile struct {
		local   int
		samples map[sample]bool
		found   map[int]map[sample]bool // by console input: the samples seen there
	}
	files := map[int]*rankFile{} // by index in inputs
	var others []int
	for i, in := range inputs {
		if n, ok := logDirRank(in.Path); ok && !in.Trace {
			if s := sampleLines(in.Path); len(s) > 0 {
				f := &rankFile{local: n, samples: map[sample]bool{}, found: map[int]map[sample]bool{}}
				for _, l := range s {
					var li lineInfo
					rest := decodeChannel(l, &li)
					f.samples[sample{li.rank, string(rest)}] = true
				}
				files[i] = f
				continue
			}
		}
		if in.Path != "-" && !in.Trace {
			others = append(others, i)
		}
	}
	if len(files) == 0 || len(others) == 0 {
		return inputs, nil
	}
	wanted := map[int][]int{} // local rank -> rank files
	for i, f := range files {
		wanted[f.local] = append(wanted[f.local], i)
	}
	for _, c := range others {
		// a console copy shows --tee prefixes from its first lines on (after the launcher's few); an input whose
		// first teeLook lines show none is not read to its end, nor one past the point all samples were seen
		lines, teed, left := 0, false, 0
		for _, f := range files {
			left += len(f.samples)
		}
		eachLine(inputs[c].Path, func(line []byte) bool {
			lines++
			var li lineInfo
			rest := decodeChannel(line, &li)
			if li.localRank < 0 {
				return teed || lines < teeLook
			}
			teed = true
			for _, i := range wanted[li.localRank] {
				f := files[i]
				k := sample{li.rank, string(rest)}
				if f.samples[k] && !f.found[c][k] {
					if f.found[c] == nil {
						f.found[c] = map[sample]bool{}
					}
					f.found[c][k] = true
					left--
				}
			}
			return left > 0
		})
	}
	var out []Input
	var aliases []Alias
	for i, in := range inputs {
		if f := files[i]; f != nil { // the first input, in order, where every sample was seen
			if c := slices.IndexFunc(others, func(c int) bool { return len(f.found[c]) == len(f.samples) }); c >= 0 {
				aliases = append(aliases, Alias{Path: in.Path, SameAs: inputs[others[c]].Path, Copy: true})
				continue
			}
		}
		out = append(out, in)
	}
	return out, aliases
}

// sampleLines returns a file's first and last teeSample non-blank lines (all of them when it has fewer than
// twice that), without their line ends.
func sampleLines(path string) [][]byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	const window = 64 << 10
	head := make([]byte, min(st.Size(), window))
	n, _ := f.ReadAt(head, 0)
	lines := nonBlank(head[:n], st.Size() > window, false)
	if st.Size() <= window {
		return lines
	}
	if len(lines) > teeSample {
		lines = lines[:teeSample]
	}
	tail := make([]byte, window)
	n, _ = f.ReadAt(tail, st.Size()-window)
	last := nonBlank(tail[:n], false, true)
	if len(last) > teeSample {
		last = last[len(last)-teeSample:]
	}
	return append(lines, last...)
}

// nonBlank splits b into its non-blank lines; cutEnd drops a last line that may go on past b, cutStart a first
// one that may have begun before it.
func nonBlank(b []byte, cutEnd, cutStart bool) [][]byte {
	if cutStart {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	if cutEnd {
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			b = b[:i+1]
		}
	}
	var out [][]byte
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(bytes.TrimSpace(line)) > 0 {
			out = append(out, line)
		}
	}
	return out
}

// teeLook is how many lines of an input are read for a --tee prefix before it is taken as no console copy.
const teeLook = 10000

// eachLine calls fn with every line of a regular file, without its line end (a line longer than 1 MiB is cut),
// until fn returns false.
func eachLine(path string, fn func([]byte) bool) {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() { // opening a FIFO waits
		return
	}
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 && !fn(bytes.TrimSuffix(bytes.TrimSuffix(line, []byte{'\n'}), []byte{'\r'})) {
			return
		}
		for err == bufio.ErrBufferFull { // the rest of a long line
			_, err = r.ReadSlice('\n')
		}
		if err != nil {
			return
		}
	}
}
