package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// The run keeps its code (issue 35): two runs of a script whose body and helper module change between them; the
// first run's code/ holds the first version, its bundle packs that version, and log and diff name both changes.
func TestRunKeepsItsCode(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the probe records imported modules from inside Python")
	}
	t.Chdir(t.TempDir())
	t.Setenv("PYTHONDONTWRITEBYTECODE", "1")
	s, err := runs.OpenStore("")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("lib", 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, ".", "lib/__init__.py", "")
	writeFile(t, ".", "lib/helpers.py", "def f():\n    return 1\n")
	writeFile(t, ".", "repro.py", "import json\nfrom lib import helpers\nprint(helpers.f())\n")
	run := func() string {
		dir, m, err := session.RunToEnd(s, runs.Spec{Argv: []string{py, "repro.py"}, Preset: "eager"}, true, nil)
		if err != nil || !m.Completed() {
			t.Fatalf("run: %v %+v", err, m)
		}
		return dir
	}
	first := run()
	writeFile(t, ".", "lib/helpers.py", "def f():\n    return 2\n")
	writeFile(t, ".", "repro.py", "import json\nfrom lib import helpers\n# changed\nprint(helpers.f() + 1)\n")
	run()

	for name, want := range map[string]string{"repro.py": "print(helpers.f())\n", "lib/helpers.py": "return 1"} {
		data, err := os.ReadFile(filepath.Join(first, "code", name))
		if err != nil || !strings.Contains(string(data), want) {
			t.Errorf("run 1's code/%s: %v %q, want the first version", name, err, data)
		}
	}
	m, err := runs.LoadRun(first)
	if err != nil || m.Code == nil || len(m.Code.Files) < 2 {
		t.Fatalf("run 1's meta.json records no code: %v %+v", err, m.Code)
	}
	if _, err := os.Stat(filepath.Join(first, "code", "lib", "__init__.py")); err != nil {
		t.Errorf("the package's __init__.py was imported but not kept: %v", err)
	}

	if code, _, errs := runCLI("bundle", "1", "-o", "one.tgz"); code != 0 {
		t.Fatalf("bundle 1: exit %d: %s", code, errs)
	}
	files := unpack(t, "one.tgz")
	if got := files["0001-eager/repro/repro.py"]; !strings.Contains(got, "print(helpers.f())\n") {
		t.Errorf("bundle of run 1 packs %q, want the script as run 1 ran it", got)
	}
	if got := files["0001-eager/repro/lib/helpers.py"]; !strings.Contains(got, "return 1") {
		t.Errorf("bundle of run 1 packs helpers %q, want run 1's", got)
	}
	if readme := files["0001-eager/README.md"]; !strings.Contains(readme, "the code that ran") {
		t.Errorf("README does not say the code is the run's:\n%s", readme)
	}

	code, out, errs := runCLI("log")
	if code != 0 {
		t.Fatalf("log: exit %d: %s", code, errs)
	}
	for _, want := range []string{"repro.py changed (+2 −1)", "lib/helpers.py changed (+1 −1)"} {
		if !strings.Contains(out, want) {
			t.Errorf("log does not say %q:\n%s", want, out)
		}
	}
	code, out, errs = runCLI("diff", "1", "2")
	if code != 0 {
		t.Fatalf("diff: exit %d: %s", code, errs)
	}
	for _, want := range []string{"repro.py changed (+2 −1)", "lib/helpers.py changed (+1 −1)"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff does not say %q:\n%s", want, out)
		}
	}
	if code, out, _ := runCLI("compare", "1", "2"); code != 0 || !strings.Contains(out, "code     repro.py changed (+2 −1) · lib/helpers.py changed (+1 −1)") {
		t.Errorf("compare does not name the code changes: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI("log", "--script", "other.py"); code != 0 || strings.Contains(out, "repro.py changed") {
		t.Errorf("log --script other.py: exit %d, still shows repro.py's runs:\n%s", code, out)
	}
}

// An old run (no code/ in its dir): the bundle packs today's script and its README says so.
func TestBundleOfOldRunSaysTodaysScript(t *testing.T) {
	t.Chdir(t.TempDir())
	s, err := runs.OpenStore("")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, ".", "repro.py", "print(1)\n")
	dir, _, err := session.RunToEnd(s, runs.Spec{Argv: []string{"true", "repro.py"}, Preset: "eager"}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, "code")) // as a run made before runs kept their code
	if err := runs.UpdateMeta(dir, func(m *runs.Meta) { m.Code = nil }); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI("bundle", "1", "-o", "old.tgz"); code != 0 {
		t.Fatalf("bundle: exit %d: %s", code, errs)
	}
	files := unpack(t, "old.tgz")
	if files["0001-eager/repro/repro.py"] != "print(1)\n" {
		t.Errorf("bundle lacks today's script: %v", files)
	}
	if readme := files["0001-eager/README.md"]; !strings.Contains(readme, "today's copy, not the run's") {
		t.Errorf("README does not say the script is today's copy:\n%s", readme)
	}
}
