package logparse

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A file reached by several paths (the same path twice, a symbolic or hard link, a file inside a directory also
// named) is one input, under its own name when the others are links to it; each other path is an alias.
func TestFindReadsEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	real, other := write("real.log"), write("other.log")
	link, link2 := filepath.Join(dir, "a-link.log"), filepath.Join(dir, "b-link.log")
	for _, l := range []string{link, link2} {
		if err := os.Symlink("real.log", l); err != nil {
			t.Fatal(err)
		}
	}
	hard := filepath.Join(t.TempDir(), "hard.log")
	if err := os.Link(real, hard); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		paths   []string
		inputs  []string
		aliases []Alias
	}{
		{[]string{real, real}, []string{real}, []Alias{{real, real}}},
		{[]string{real, hard}, []string{real}, []Alias{{hard, real}}},
		// two links first, then the file: the file's own name is kept, both links are its aliases
		{[]string{link, link2, real, other}, []string{real, other}, []Alias{{link2, real}, {link, real}}},
		// a directory holding the links and the file: sorted a-link, b-link, other, real
		{[]string{dir}, []string{real, other}, []Alias{{link2, real}, {link, real}}},
		{[]string{dir, dir, real}, []string{real, other}, []Alias{{dir, dir}, {link2, real}, {link, real}, {real, real}}},
		{[]string{real, other}, []string{real, other}, nil},
	} {
		f, err := Find(c.paths)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, in := range f.Inputs {
			got = append(got, in.Path)
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(c.inputs))
		if !slices.Equal(got, want) || !slices.Equal(f.Aliases, c.aliases) {
			t.Errorf("Find(%v):\n inputs  %v, want %v\n aliases %v, want %v", c.paths, got, want, f.Aliases, c.aliases)
		}
	}
}

// TextOnly holds when every input is a regular file that is not a trace: a TORCH_TRACE file (by name or by its
// first line), standard input or a FIFO may be a trace, so it does not.
func TestFindTextOnly(t *testing.T) {
	fx := filepath.Join("..", "testdata", "fixtures", "torch-2.14")
	text := filepath.Join(fx, "gb_recompile.withtrace.log")
	traceDir := filepath.Join(fx, "gb_recompile.trace")
	entries, err := os.ReadDir(traceDir)
	if err != nil || len(entries) == 0 {
		t.Fatalf("trace dir: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(traceDir, entries[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(t.TempDir(), "not-named-like-a-trace.log") // a trace known by its first line
	if err := os.WriteFile(renamed, data, 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "pipe.log")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, c := range []struct {
		paths []string
		want  bool
	}{
		{[]string{text}, true},
		{[]string{text, traceDir}, false},
		{[]string{text, renamed}, false},
		{[]string{text, "-"}, false},
		{[]string{text, fifo}, false}, // not opened: that would wait for a writer
	} {
		f, err := Find(c.paths)
		if err != nil {
			t.Fatal(err)
		}
		if f.TextOnly != c.want {
			t.Errorf("Find(%v).TextOnly = %v", c.paths, f.TextOnly)
		}
	}
}
