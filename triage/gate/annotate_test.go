package gate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Annotation paths: relative to --path-root or the current directory, else the longest suffix that exists
// here, else no file property (GitHub cannot place an annotation on a file it does not know).
func TestAnnotationPaths(t *testing.T) {
	wd := t.TempDir()
	if err := os.MkdirAll(filepath.Join(wd, "repro"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"repro/r05_dist_c10d.py", "local.py"} {
		if err := os.WriteFile(filepath.Join(wd, f), []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(wd)
	wd, _ = os.Getwd()
	for _, tc := range []struct{ file, root, want string }{
		{"/work/repro/r05_dist_c10d.py", "/work/repro", "r05_dist_c10d.py"},
		{"/work/repro/r05_dist_c10d.py", "/work/repro/", "r05_dist_c10d.py"},
		{"/work/repro/r05_dist_c10d.py", "", "repro/r05_dist_c10d.py"},
		{"/box/home/ci/repro/r05_dist_c10d.py", "/work", "repro/r05_dist_c10d.py"},
		{filepath.Join(wd, "repro", "r05_dist_c10d.py"), "", "repro/r05_dist_c10d.py"},
		{filepath.Join(wd, "a", "b.py"), "", "a/b.py"},
		{"/work/other/missing.py", "", ""},
		{"/usr/lib/python3/site-packages/torch/nn/parallel/distributed.py", "", ""},
		{"local.py", "", "local.py"},
		{"elsewhere.py", "", ""},
	} {
		got, _ := annotationPath(tc.file, tc.root)
		if got != tc.want {
			t.Errorf("annotationPath(%q, root %q) = %q, want %q", tc.file, tc.root, got, tc.want)
		}
	}
	res := Result{Failures: []Failure{
		{Rule: "--max-graph-breaks=0", Message: "m1", File: "/work/repro/r05_dist_c10d.py", Line: 10},
		{Rule: "--max-graph-breaks=0", Message: "m2", File: "/work/x/unknown.py", Line: 3},
	}}
	var out bytes.Buffer
	if err := WriteGateRooted(&out, "github", res, ""); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if lines[0] != "::error file=repro/r05_dist_c10d.py,line=10,title=torchtriage --max-graph-breaks=0::m1" ||
		lines[1] != "::error title=torchtriage --max-graph-breaks=0::m2" {
		t.Errorf("github:\n%s", out.String())
	}
}
