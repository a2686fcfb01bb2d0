package probe

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInstall(t *testing.T) {
	runDir := t.TempDir()
	dir := Dir(runDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, stale := range []string{"rank0-1.json", "ready-1", "rank1-2.json.tmp"} {
		if err := os.WriteFile(filepath.Join(dir, stale), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PYTHONPATH", "/user/lib"+string(os.PathListSeparator)+"/other")
	env, err := Install(runDir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"PYTHONPATH=" + dir + string(os.PathListSeparator) + "/user/lib" + string(os.PathListSeparator) + "/other",
		"TORCHTRIAGE_PROBE_DIR=" + dir,
	}
	if strings.Join(env, "\n") != strings.Join(want, "\n") {
		t.Errorf("env %q, want %q", env, want)
	}
	got, err := os.ReadFile(filepath.Join(dir, "sitecustomize.py"))
	if err != nil || !bytes.Equal(got, siteCustomize) || !bytes.Contains(got, []byte("faulthandler.register")) {
		t.Fatalf("sitecustomize.py not written: %v", err)
	}
	if names := probeFiles(t, runDir); len(names) != 0 {
		t.Errorf("stale probe files survived: %v", names)
	}
	t.Setenv("PYTHONPATH", "")
	env, _ = Install(runDir)
	if env[0] != "PYTHONPATH="+dir {
		t.Errorf("without a PYTHONPATH: %q", env[0])
	}
	if _, err := Install(""); err == nil {
		t.Error("an empty run dir must be an error")
	}
}
