package probe

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// At exit the probe lists the .py files of the user modules the run imported from under its start directory or
// its script's directory, with or without torch: not the standard library, not site-packages, not torch.
func TestProbeListsImportedUserModules(t *testing.T) {
	work := t.TempDir()
	for name, text := range map[string]string{
		"main.py":         "import json, helper\nfrom pkg import deep\nimport torch\nprint('ok')\n",
		"helper.py":       "X = 1\n",
		"pkg/__init__.py": "",
		"pkg/deep.py":     "Y = 2\n",
		"unused.py":       "Z = 3\n",
	} {
		p := filepath.Join(work, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runDir, env := installProbe(t, fakeTorch(t))
	if res := runFile(t, env, filepath.Join(work, "main.py")); res.code != 0 || res.stdout != "ok\n" {
		t.Fatalf("run: %+v", res)
	}
	real, _ := filepath.EvalSymlinks(work)
	want := []string{filepath.Join(real, "helper.py"), filepath.Join(real, "pkg", "__init__.py"), filepath.Join(real, "pkg", "deep.py")}
	if got := ImportedFiles(runDir); !slices.Equal(got, want) {
		t.Errorf("ImportedFiles = %q, want %q", got, want)
	}
}
