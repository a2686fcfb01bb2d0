package runs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// CodeDir is the folder of a run directory that keeps the code the run ran: the script(s) its command names,
// copied at launch, and the user modules the probe saw imported, copied when the run ends.
const CodeDir = "code"

// Caps on what a run keeps of its code: a file over MaxCodeFile, or one that would take the kept tree over
// MaxCodeTree, is listed with its hash and size, not copied.
const (
	MaxCodeFile = 1 << 20
	MaxCodeTree = 20 << 20
)

// Code is what a run kept of its code (Meta.Code; nil in a run made before runs kept it).
type Code struct {
	Files []CodeFile `json:"files"`
}

// CodeFile is one file of the code a run ran: Path is its name under code/ (relative to the working directory,
// or "outside/<absolute path>" for a file elsewhere), Source where it was read from. Skipped says why it was
// listed but not copied ("over 1 MB", "the kept code would pass 20 MB", "unreadable: …"); "" when it is in code/.
type CodeFile struct {
	Path    string `json:"path"`
	Source  string `json:"source"`
	Size    int64  `json:"size"`
	SHA256  string `json:"sha256,omitempty"`
	Module  bool   `json:"module,omitempty"` // imported (the probe saw it), not named in the command
	Skipped string `json:"skipped,omitempty"`
}

// Kept reports whether the file's copy is in the run's code/.
func (f CodeFile) Kept() bool { return f.Skipped == "" }

// CommandScripts returns the absolute paths of the scripts a command names: python SCRIPT, python -m MODULE
// resolved under the working directory (MODULE.py, or MODULE/__main__.py), torchrun's script, and any other
// argument ending in .py that exists. Files that do not exist are left out.
func CommandScripts(argv []string, cwd string) []string {
	var out []string
	add := func(p string) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for i, a := range argv {
		if a == "-m" && i+1 < len(argv) {
			mod := filepath.Join(strings.Split(argv[i+1], ".")...)
			for _, c := range []string{mod + ".py", filepath.Join(mod, "__main__.py")} {
				if st, err := os.Stat(filepath.Join(cwd, c)); err == nil && st.Mode().IsRegular() {
					add(c)
					break
				}
			}
			continue
		}
		if strings.HasSuffix(a, ".py") && !strings.HasPrefix(a, "-") { // a path with blanks in it
			add(a)
		}
		for _, f := range strings.Fields(a) { // sh -c "python repro.py" names it inside one argument
			if strings.HasSuffix(f, ".py") && !strings.HasPrefix(f, "-") {
				add(f)
			}
		}
	}
	return out
}

// codeName is the name a source file is kept under in code/: relative to the working directory, else
// "outside/" and its absolute path.
func codeName(src, cwd string) string {
	dirs := []string{cwd}
	if real, err := filepath.EvalSymlinks(cwd); err == nil && real != cwd { // the probe names files by their real path
		dirs = append(dirs, real)
	}
	for _, d := range dirs {
		if rel, err := filepath.Rel(d, src); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return filepath.ToSlash(rel)
		}
	}
	return "outside/" + strings.TrimPrefix(filepath.ToSlash(src), "/")
}

// KeepCode copies the files srcs (absolute paths) into dir/code/ and adds them to code (nil: a new record),
// under the caps (MaxCodeFile, MaxCodeTree); a file already recorded is not kept twice. module marks files the
// probe saw imported. It returns the record; a file it cannot read is listed as skipped, never an error.
func KeepCode(dir, cwd string, code *Code, srcs []string, module bool) *Code {
	if code == nil {
		code = &Code{Files: []CodeFile{}}
	} else {
		code = &Code{Files: slices.Clone(code.Files)} // a Meta handed out earlier keeps its own
	}
	var total int64
	for _, f := range code.Files {
		if f.Kept() {
			total += f.Size
		}
	}
	for _, src := range srcs {
		name := codeName(src, cwd)
		if slices.ContainsFunc(code.Files, func(f CodeFile) bool { return f.Path == name }) {
			continue
		}
		f := CodeFile{Path: name, Source: src, Module: module}
		data, size, sum, err := readCapped(src)
		f.Size, f.SHA256 = size, sum
		switch {
		case err != nil:
			f.Skipped = "unreadable: " + err.Error()
		case size > MaxCodeFile:
			f.Skipped = "over 1 MB: listed with its hash, not copied"
		case total+size > MaxCodeTree:
			f.Skipped = "the kept code would pass 20 MB: listed with its hash, not copied"
		default:
			if err := writeCodeFile(filepath.Join(dir, CodeDir, filepath.FromSlash(name)), data); err != nil {
				f.Skipped = "not copied: " + err.Error()
			} else {
				total += size
			}
		}
		code.Files = append(code.Files, f)
	}
	return code
}

// readCapped hashes a file; its bytes come back only when it is at most MaxCodeFile long.
func readCapped(path string) (data []byte, size int64, sum string, err error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, 0, "", err
	}
	defer fh.Close()
	h := sha256.New()
	var keep strings.Builder
	w := io.Writer(h)
	st, err := fh.Stat()
	if err != nil {
		return nil, 0, "", err
	}
	if st.Size() <= MaxCodeFile {
		w = io.MultiWriter(h, &keep)
	}
	n, err := io.Copy(w, fh)
	if err != nil {
		return nil, n, "", err
	}
	if n <= MaxCodeFile {
		data = []byte(keep.String())
	}
	return data, n, hex.EncodeToString(h.Sum(nil)), nil
}

func writeCodeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// CodeChange is a file of the code that differs between two runs: Change is "changed", "added" or "removed";
// Added and Removed count lines where both copies are kept (Counted).
type CodeChange struct {
	Path    string `json:"path"`
	Change  string `json:"change"`
	A       string `json:"sha256_a,omitempty"` // the file's hash in run a; "" where it was added
	B       string `json:"sha256_b,omitempty"` // in run b; "" where it was removed
	Added   int    `json:"added,omitempty"`
	Removed int    `json:"removed,omitempty"`
	Counted bool   `json:"counted,omitempty"`
}

// String words a change: "repro.py changed (+2 −1)", "lib/helpers.py changed", "lib/new.py added".
func (c CodeChange) String() string {
	s := c.Path + " " + c.Change
	if c.Counted {
		s += fmt.Sprintf(" (+%d −%d)", c.Added, c.Removed)
	}
	return s
}

// CodeChangesText joins changes: "repro.py changed (+2 −1) · lib/helpers.py changed".
func CodeChangesText(cs []CodeChange) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, " · ")
}

// CodeChanges lists the files of the code that differ from run a to run b, by hash, with line counts where both
// runs kept a copy. nil where either run kept no code (a run made before runs kept it): nothing is known. An
// imported module is named added or removed only where the other run recorded imported modules too (a run
// without the probe records none).
func CodeChanges(a, b Meta) []CodeChange {
	if a.Code == nil || b.Code == nil {
		return nil
	}
	byPath := func(c *Code) map[string]CodeFile {
		out := map[string]CodeFile{}
		for _, f := range c.Files {
			out[f.Path] = f
		}
		return out
	}
	fa, fb := byPath(a.Code), byPath(b.Code)
	modules := func(c *Code) bool { return slices.ContainsFunc(c.Files, func(f CodeFile) bool { return f.Module }) }
	ma, mb := modules(a.Code), modules(b.Code)
	var out []CodeChange
	for _, f := range b.Code.Files { // in the order run b kept them: the scripts first
		g, ok := fa[f.Path]
		switch {
		case !ok && (!f.Module || ma):
			out = append(out, CodeChange{Path: f.Path, Change: "added", B: f.SHA256})
		case !ok:
		case g.SHA256 != f.SHA256 || g.Size != f.Size:
			c := CodeChange{Path: f.Path, Change: "changed", A: g.SHA256, B: f.SHA256}
			if f.Kept() && g.Kept() {
				x, errx := os.ReadFile(filepath.Join(a.Dir, CodeDir, filepath.FromSlash(g.Path)))
				y, erry := os.ReadFile(filepath.Join(b.Dir, CodeDir, filepath.FromSlash(f.Path)))
				if errx == nil && erry == nil {
					c.Added, c.Removed, c.Counted = LineDiff(string(x), string(y))
				}
			}
			out = append(out, c)
		}
	}
	for _, g := range a.Code.Files {
		if _, ok := fb[g.Path]; !ok && (!g.Module || mb) {
			out = append(out, CodeChange{Path: g.Path, Change: "removed", A: g.SHA256})
		}
	}
	return out
}

// LineDiff counts the lines added and removed from a to b (the longest common subsequence of lines); ok false
// when the changed part is too large to count cheaply.
func LineDiff(a, b string) (added, removed int, ok bool) {
	x, y := splitLines(a), splitLines(b)
	for len(x) > 0 && len(y) > 0 && x[0] == y[0] {
		x, y = x[1:], y[1:]
	}
	for len(x) > 0 && len(y) > 0 && x[len(x)-1] == y[len(y)-1] {
		x, y = x[:len(x)-1], y[:len(y)-1]
	}
	if len(x) == 0 || len(y) == 0 {
		return len(y), len(x), true
	}
	if len(x)*len(y) > 4_000_000 {
		return 0, 0, false
	}
	prev, cur := make([]int, len(y)+1), make([]int, len(y)+1)
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			switch {
			case x[i-1] == y[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	common := prev[len(y)]
	return len(y) - common, len(x) - common, true
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
