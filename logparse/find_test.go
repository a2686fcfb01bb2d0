package logparse

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A file reached by several paths (the same path twice, a symbolic or hard link, a file inside a directory also
// named) is one input, under its own name when the others are links to it; each other path is an alias.
func TestFindReadsEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(name+"\n"), 0o644); err != nil {
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
		{[]string{real, real}, []string{real}, []Alias{{Path: real, SameAs: real}}},
		{[]string{real, hard}, []string{real}, []Alias{{Path: hard, SameAs: real}}},
		// two links first, then the file: the file's own name is kept, both links are its aliases
		{[]string{link, link2, real, other}, []string{real, other}, []Alias{{Path: link2, SameAs: real}, {Path: link, SameAs: real}}},
		// a directory holding the links and the file: sorted a-link, b-link, other, real
		{[]string{dir}, []string{real, other}, []Alias{{Path: link2, SameAs: real}, {Path: link, SameAs: real}}},
		{[]string{dir, dir, real}, []string{real, other}, []Alias{{Path: dir, SameAs: dir}, {Path: link2, SameAs: real}, {Path: link, SameAs: real}, {Path: real, SameAs: real}}},
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

// A torchrun --log-dir rank file is read once only when the other input holds every sampled line of it on its
// own local rank's --tee channel: a console copy cut before the run's end, or rank files under the other local
// rank's directory, leave them read (real torch 2.6 output, testdata/tee).
func TestFindTeeCopiesNeedEveryLineOnTheRank(t *testing.T) {
	src := filepath.Join("..", "testdata", "tee", "logs")
	copyTree := func(t *testing.T) string {
		dst := t.TempDir()
		err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
		return dst
	}
	// inputs read, and the stderr.log files taken as copies (their records are what counts)
	count := func(dir string) (inputs, copies int) {
		f, err := Find([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range f.Aliases {
			if a.Copy && filepath.Base(a.Path) == "stderr.log" {
				copies++
			}
		}
		return len(f.Inputs), copies
	}
	if in, c := count(copyTree(t)); in != 1 || c != 2 {
		t.Fatalf("the whole run: %d inputs, %d copies; want the console alone", in, c)
	}
	cut := copyTree(t)
	console := filepath.Join(cut, "console.log")
	data, _ := os.ReadFile(console)
	if err := os.WriteFile(console, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if in, c := count(cut); c != 0 || in != 3 { // the stdout.log prints came before the cut: those are in it
		t.Errorf("console cut in half: %d inputs, %d stderr.log copies; want both read", in, c)
	}
	// an input without a --tee prefix in its first teeLook lines is not read on (a large log beside a log-dir
	// tree was read twice over): one whose console part starts later is no copy
	late := copyTree(t)
	console = filepath.Join(late, "console.log")
	data, _ = os.ReadFile(console)
	if err := os.WriteFile(console, append([]byte(strings.Repeat("plain output\n", teeLook)), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	if in, c := count(late); c != 0 || in != 5 {
		t.Errorf("tee prefixes only after %d lines: %d inputs, %d copies", teeLook, in, c)
	}
	swapped := copyTree(t)
	runs, _ := filepath.Glob(filepath.Join(swapped, "none_*", "attempt_0"))
	if len(runs) != 1 {
		t.Fatal(runs)
	}
	a, b, tmp := filepath.Join(runs[0], "0"), filepath.Join(runs[0], "1"), filepath.Join(runs[0], "x")
	for _, mv := range [][2]string{{a, tmp}, {b, a}, {tmp, b}} {
		if err := os.Rename(mv[0], mv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if in, c := count(swapped); c != 0 || in != 5 {
		t.Errorf("rank files under the other local rank: %d inputs, %d copies", in, c)
	}
}

// Two files with the same bytes are one file's copy only when those bytes hold torch's time stamps and process
// ids and the files' names give no two ranks: two processes may print the same lines of their own.
func TestFindSameBytes(t *testing.T) {
	glog := []byte("V1126 20:31:32.190000 13614 torch/_dynamo/guards.py:2791] [0/1] [__recompiles] Recompiling function f in /a.py:10\n")
	plain := []byte("Traceback (most recent call last):\nRuntimeError: boom\n")
	for _, c := range []struct {
		name     string
		a, b     string
		data     []byte
		inputs   int
		sameByte bool
	}{
		{"a copy", "train.log", "train.log.txt", glog, 1, true},
		{"no time stamps", "a.log", "b.log", plain, 2, false},
		{"two ranks", "rank0.log", "rank1.log", glog, 2, false},
	} {
		dir := t.TempDir()
		for _, n := range []string{c.a, c.b} {
			if err := os.WriteFile(filepath.Join(dir, n), c.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		f, err := Find([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		same := len(f.Aliases) == 1 && f.Aliases[0].SameBytes && filepath.Base(f.Aliases[0].Path) == c.b
		if len(f.Inputs) != c.inputs || same != c.sameByte {
			t.Errorf("%s: %d inputs, aliases %v", c.name, len(f.Inputs), f.Aliases)
		}
	}
}

// CheckPath refuses a path exactly when Find does, with Find's words: the TUI checks its paths with it before
// its screen starts, and loads them with Find after.
func TestCheckPathAgreesWithFind(t *testing.T) {
	dir := t.TempDir()
	mk := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	log := mk("run/a/b/train.log", "epoch 1\n")
	notes := mk("notes/readme.md", "# notes\n")
	os.MkdirAll(filepath.Join(dir, "devs"), 0o755)
	os.Symlink("/dev/zero", filepath.Join(dir, "devs", "zero.log"))
	mk("probeonly/probe/rank0.log", "x\n") // a run's probe directory is not walked
	for _, p := range []string{log, filepath.Join(dir, "run"), filepath.Dir(notes), filepath.Join(dir, "devs"),
		filepath.Join(dir, "probeonly"), "/dev/zero", os.DevNull, filepath.Join(dir, "missing.log"), "-"} {
		_, ferr := Find([]string{p})
		cerr := CheckPath(p)
		if (ferr == nil) != (cerr == nil) || ferr != nil && ferr.Error() != cerr.Error() {
			t.Errorf("%s: Find says %v, CheckPath %v", p, ferr, cerr)
		}
	}
	if CheckPath(filepath.Join(dir, "devs")) == nil || CheckPath(filepath.Join(dir, "run")) != nil {
		t.Error("a directory holding only a device link must be refused, one with a log deep inside taken")
	}
}

// The tool's own import hook (the probe's sitecustomize.py in a run dir) is no frame of the program: a traceback
// of `import torch` through it (real 2.14.1, testdata/recorded/invalid-logs) is the program's at its import line.
func TestUserFrameSkipsTheToolsProbe(t *testing.T) {
	frames := []Frame{{File: "/tmp/rt14/quick.py", Line: 1}, {File: "<frozen importlib._bootstrap>", Line: 1371},
		{File: "/tmp/rt14/.torchtriage/runs/0006-custom/probe/sitecustomize.py", Line: 184},
		{File: "/usr/lib/python3/dist-packages/torch/__init__.py", Line: 3536}}
	if f, ok := UserFrame(frames); !ok || f.File != "/tmp/rt14/quick.py" || f.Line != 1 {
		t.Errorf("user frame %+v %v, want quick.py:1", f, ok)
	}
	// a program's own sitecustomize.py, or a probe/ directory of its own, is the program's
	if f, _ := UserFrame([]Frame{{File: "/home/me/proj/probe/sitecustomize.py", Line: 3}}); f.Line != 3 {
		t.Errorf("the program's own probe/sitecustomize.py was skipped: %+v", f)
	}
}

// IPython pads its arrow to the width of the line numbers ("----> 3", "---> 12", "--> 655"): every such line is the
// code that ran, never the exception (synthetic, from pasted-logs.md §1: a cell's traceback into torch).
func TestIPythonArrowsOfEveryWidth(t *testing.T) {
	text := "---------------------------------------------------------------------------\n" +
		"InductorError                             Traceback (most recent call last)\n" +
		"Cell In[7], line 12\n     11 x = torch.randn(8, 16)\n---> 12 out = model(x)\n\n" +
		"File /usr/lib/python3/dist-packages/torch/_dynamo/eval_frame.py:655, in _TorchDynamoContext.__call__.<locals>._fn(*args, **kwargs)\n" +
		"    653     raise e.with_traceback(None) from None\n--> 655 return fn(*args, **kwargs)\n\n" +
		"InductorError: CppCompileError: C++ compile error\n"
	var errs []*Record
	if err := Parse(strings.NewReader(text), Options{Rank: -1}, func(r *Record) {
		if r.Error != nil {
			errs = append(errs, r)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || errs[0].Kind != KindCompileError || !strings.HasSuffix(errs[0].Error.Class, "InductorError") {
		for _, r := range errs {
			t.Logf("%v %q %q", r.Kind, r.Error.Class, r.Error.Message)
		}
		t.Fatalf("want one compile error InductorError, got %d", len(errs))
	}
}
