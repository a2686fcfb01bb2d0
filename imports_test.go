package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/torchtriage/torchtriage"

// imports reads the module-internal imports of every package's non-test files: package dir -> imported dirs.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(p, module+"/"); ok && !slices.Contains(out[pkg], rest) {
				out[pkg] = append(out[pkg], rest)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// layers is the house, bottom up: a package imports only packages of lower layers (docs/dev/architecture.md).
// Every package of the module stands in exactly one layer.
var layers = [][]string{
	{"logparse", "triage/text", "triage/numshape", "triage/probe", "triage/demo", "internal/proc", "tui/cells",
		"tui/spark", "tui/narrow", "triage/session/lineidx", "playbooks/internal/gbregistry"}, // import nothing of the module (gbregistry: the generator go generate runs, never linked)
	{"logparse/trace", "playbooks", "triage/runs", "triage/guard", "internal/testlogs"}, // logparse/trace: logparse's records
	{"triage/report"},
	{"triage/steady"},
	{"triage/findings"},
	{"triage/ranks"},
	{"triage"},
	{"triage/render", "triage/gate", "triage/runner"},
	{"triage/compare"},
	{"triage/session", "doctor"},
	{"triage/story", "triage/ladder"},
	{"triage/triagetest"}, // only tests import it: it reads inputs as the commands do (session, gate, compare, story)
	{"tui"},
	{"cli"},
	{".", "internal/gendocs"}, // main, and the docs generator that go generate runs (never linked into torchtriage)
}

// The layout's rules: imports flow one way (DEVELOPERS.md and the architecture issue).
func TestImportRules(t *testing.T) {
	deps := imports(t)
	layer := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			layer[p] = i
			if _, ok := deps[p]; !ok {
				t.Errorf("package %s is missing from the layout", p)
			}
		}
	}
	for pkg, ds := range deps {
		li, ok := layer[pkg]
		if !ok {
			t.Errorf("package %s has no layer in imports_test.go's table", pkg)
			continue
		}
		for _, d := range ds {
			if layer[d] >= li {
				t.Errorf("%s (layer %d) imports %s (layer %d): imports flow down only", pkg, li, d, layer[d])
			}
		}
	}
	rules := []struct {
		pkg    string
		denied func(dep string) bool
		why    string
	}{
		{"tui", func(d string) bool {
			return d == "triage/runner" || d == "triage/probe" || d == "triage/demo" || d == "cli"
		}, "tui reads run data from triage/runs and drives runs through triage/session, never runner, probe or demo"},
		{"cli", func(d string) bool { return d == "triage/runner" },
			"cli reads run data from triage/runs and drives runs through triage/session, never the runner itself"},
		{"doctor", func(d string) bool { return d == "cli" || d == "tui" }, "doctor (the box check) imports neither cli nor tui"},
	}
	for pkg, ds := range deps {
		if pkg != "triage/session" && slices.Contains(ds, "triage/runner") {
			t.Errorf("%s imports triage/runner: runs are launched and supervised through triage/session only", pkg)
		}
	}
	for _, r := range rules {
		for _, d := range deps[r.pkg] {
			if r.denied(d) {
				t.Errorf("%s imports %s: %s", r.pkg, d, r.why)
			}
		}
	}
	for pkg := range deps {
		if _, err := os.Stat(filepath.Join(pkg, "doc.go")); pkg != "." && err != nil {
			t.Errorf("package %s has no doc.go saying its job", pkg)
		}
	}
}

// Every linked package's init runs at start-up, whatever the command: glamour's syntax highlighter (chroma) cost
// ~15 ms of every start, the TUI's first frame and a report's included, for playbooks that hold no code blocks.
// The playbooks render themselves (playbooks/render_styled.go); nothing links it back in.
func TestNoSyntaxHighlighterLinked(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build info")
	}
	for _, d := range bi.Deps {
		for _, heavy := range []string{"github.com/alecthomas/chroma", "charm.land/glamour", "github.com/charmbracelet/glamour"} {
			if strings.HasPrefix(d.Path, heavy) {
				t.Errorf("%s %s is linked: its package init runs on every start", d.Path, d.Version)
			}
		}
	}
}

// The docs generator's cobra/doc (and the markdown and man-page packages it pulls in) is for go generate only:
// internal/gendocs is the one importer, and nothing links it into torchtriage.
func TestNoDocGeneratorLinked(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build info")
	}
	for _, d := range bi.Deps {
		for _, gen := range []string{"github.com/cpuguy83/go-md2man", "github.com/russross/blackfriday"} {
			if strings.HasPrefix(d.Path, gen) {
				t.Errorf("%s %s is linked: cobra/doc belongs to internal/gendocs alone", d.Path, d.Version)
			}
		}
	}
}
