package runs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCommandScripts(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"repro.py", "pkg/__main__.py", "tool/run.py", "other.py"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x\n"), 0o644)
	}
	for _, c := range []struct {
		argv []string
		want []string
	}{
		{[]string{"python3", "repro.py", "--x"}, []string{"repro.py"}},
		{[]string{"python", "-m", "pkg"}, []string{"pkg/__main__.py"}},
		{[]string{"python", "-m", "tool.run"}, []string{"tool/run.py"}},
		{[]string{"torchrun", "--nproc-per-node", "2", "repro.py"}, []string{"repro.py"}},
		{[]string{"sh", "-c", "python repro.py && python other.py"}, []string{"repro.py", "other.py"}},
		{[]string{"python", "missing.py"}, nil},
	} {
		var want []string
		for _, w := range c.want {
			want = append(want, filepath.Join(dir, w))
		}
		if got := CommandScripts(c.argv, dir); !slices.Equal(got, want) {
			t.Errorf("CommandScripts(%q) = %q, want %q", c.argv, got, want)
		}
	}
}

// Files over 1 MB, and those that would take the kept tree over 20 MB, are listed with their hash, not copied.
func TestKeepCodeCaps(t *testing.T) {
	src, run := t.TempDir(), t.TempDir()
	small := filepath.Join(src, "a.py")
	big := filepath.Join(src, "big.py")
	os.WriteFile(small, []byte("print(1)\n"), 0o644)
	os.WriteFile(big, []byte(strings.Repeat("#\n", MaxCodeFile)), 0o644)
	var many []string
	for i := range 25 { // 25 files of ~900 KB: the tree passes 20 MB
		p := filepath.Join(src, "m", string(rune('a'+i))+".py")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(strings.Repeat("x", 900<<10)), 0o644)
		many = append(many, p)
	}
	code := KeepCode(run, src, nil, []string{small, big}, false)
	code = KeepCode(run, src, code, append(many, small), true)
	if len(code.Files) != 27 {
		t.Fatalf("%d files recorded, want 27 (a.py once)", len(code.Files))
	}
	if f := code.Files[0]; !f.Kept() || f.Path != "a.py" || f.Size != 9 || len(f.SHA256) != 64 {
		t.Errorf("a.py: %+v", f)
	}
	if f := code.Files[1]; f.Kept() || !strings.Contains(f.Skipped, "over 1 MB") || len(f.SHA256) != 64 {
		t.Errorf("big.py: %+v", f)
	}
	if _, err := os.Stat(filepath.Join(run, CodeDir, "big.py")); err == nil {
		t.Error("big.py was copied")
	}
	var kept int64
	skipped := 0
	for _, f := range code.Files {
		if f.Kept() {
			kept += f.Size
		} else if strings.Contains(f.Skipped, "20 MB") {
			skipped++
		}
	}
	if kept > MaxCodeTree || skipped == 0 {
		t.Errorf("kept %d bytes, %d skipped for the tree cap", kept, skipped)
	}
}

func TestLineDiff(t *testing.T) {
	for _, c := range []struct {
		a, b         string
		added, remov int
	}{
		{"a\nb\nc\n", "a\nx\nb\nc\ny\n", 2, 0},
		{"a\nb\nc\n", "a\nc\n", 0, 1},
		{"import json\nprint(f())\n", "import json\n# changed\nprint(f() + 1)\n", 2, 1},
		{"", "a\n", 1, 0},
	} {
		a, r, ok := LineDiff(c.a, c.b)
		if !ok || a != c.added || r != c.remov {
			t.Errorf("LineDiff(%q, %q) = +%d −%d %v, want +%d −%d", c.a, c.b, a, r, ok, c.added, c.remov)
		}
	}
}

// A meta.json written before runs kept their code reads with Code nil, and nothing is compared of it.
func TestOldMetaHasNoCode(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "meta.json"), []byte(`{"id":1,"name":"0001-breaks","argv":["python","r.py"],"state":"exited"}`), 0o644)
	m, err := LoadRun(dir)
	if err != nil || m.Code != nil {
		t.Fatalf("old meta: %v %+v", err, m.Code)
	}
	n := m
	n.Code = &Code{Files: []CodeFile{{Path: "r.py", SHA256: "x"}}}
	if cs := CodeChanges(m, n); cs != nil {
		t.Errorf("changes against an old run: %v", cs)
	}
	data, _ := json.Marshal(m)
	if strings.Contains(string(data), `"code"`) {
		t.Errorf("an old run's meta gained a code field: %s", data)
	}
}

// A working directory reached through a symlink: the probe names modules by their real path, and they are kept
// under their name relative to it all the same.
func TestKeepCodeThroughSymlinkedCwd(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "work")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	os.WriteFile(filepath.Join(real, "h.py"), []byte("x\n"), 0o644)
	code := KeepCode(t.TempDir(), link, nil, []string{filepath.Join(real, "h.py")}, true)
	if code.Files[0].Path != "h.py" {
		t.Errorf("kept as %q, want h.py", code.Files[0].Path)
	}
}
