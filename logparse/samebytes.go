package logparse

import (
	"bytes"
	"hash/fnv"
	"io"
	"os"
	"slices"
)

// maxSameSize is the most files of one size sameBytes compares (thousands of one-line files share a few sizes;
// reading them all again would cost more than a copy among them).
const maxSameSize = 64

// sameBytes takes out the inputs whose bytes are those of an input before them (a log copied next to itself,
// train.log and train.log.txt): each is an alias of the first, read once. Only regular files of one size and
// one rank (by name) are compared, and only those with a line torch logged with its time and process id in
// their first 64 KiB: two processes print the same lines of their own (warnings, tracebacks, prints), but not
// the same time stamps and process ids. Their first 64 KiB are compared, then, where alike, the whole files.
func sameBytes(inputs []Input, stats map[string]os.FileInfo) ([]Input, []Alias) {
	bySize := map[int64][]int{}
	for i, in := range inputs {
		if st := stats[in.Path]; st != nil && st.Mode().IsRegular() && st.Size() > 0 {
			bySize[st.Size()] = append(bySize[st.Size()], i)
		}
	}
	first := map[int]int{} // an input -> the input before it with its bytes
	for _, group := range bySize {
		if len(group) < 2 || len(group) > maxSameSize {
			continue
		}
		type head struct {
			hash uint64
			rank int
		}
		byHead := map[head][]int{}
		for _, i := range group {
			if h, ok := headHash(inputs[i].Path); ok {
				k := head{h, inputs[i].Rank}
				byHead[k] = append(byHead[k], i)
			}
		}
		for _, alike := range byHead {
			for a, i := range alike {
				if _, ok := first[i]; ok {
					continue
				}
				for _, j := range alike[a+1:] {
					if _, ok := first[j]; !ok && sameFileBytes(inputs[i].Path, inputs[j].Path) {
						first[j] = i
					}
				}
			}
		}
	}
	if len(first) == 0 {
		return inputs, nil
	}
	var out []Input
	var aliases []Alias
	for i, in := range inputs {
		if j, ok := first[i]; ok {
			aliases = append(aliases, Alias{Path: in.Path, SameAs: inputs[j].Path, SameBytes: true})
			continue
		}
		out = append(out, in)
	}
	return out, aliases
}

// headHash hashes a file's first 64 KiB; ok only when they hold a line torch logged with its time and process
// id (a glog head).
func headHash(path string) (hash uint64, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	b := make([]byte, 64<<10)
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.ErrUnexpectedEOF {
		return 0, false
	}
	b = b[:n]
	ok = slices.ContainsFunc(nonBlank(b, false, false), func(line []byte) bool {
		var li lineInfo
		return parseGlog(decodeChannel(line, &li), &li) && li.pid > 0
	})
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64(), ok
}

// sameFileBytes reports two files with the same bytes (read side by side; it stops at the first difference).
func sameFileBytes(a, b string) bool {
	fa, err := os.Open(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	ba, bb := make([]byte, 256<<10), make([]byte, 256<<10)
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false
		}
		if ea != nil || eb != nil {
			return (ea == io.EOF || ea == io.ErrUnexpectedEOF) && (eb == io.EOF || eb == io.ErrUnexpectedEOF)
		}
	}
}
