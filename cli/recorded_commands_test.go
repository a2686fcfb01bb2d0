package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A 2-rank run whose rank 0 printed no torch record (real 2.14.1, testdata/recorded/quiet-rank): the bringup log
// counted "1 rank", as many as the log's prefixes; the launcher and both probes show two, as the report says.
func TestBringupLogCountsTheRanksTheReportShows(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "quiet-rank", "runs", "0013-breaks")
	_, out, _ := runCLI("report", "--width", "300", dir)
	if !strings.Contains(lineWith(out, "torchtriage report"), "ranks 0,1") {
		t.Fatalf("report header:\n%s", out)
	}
	_, out, _ = runCLI("log", "--width", "300", "--store", filepath.Dir(dir))
	if strings.Contains(out, "1 rank") || !strings.Contains(out, "ranks 0,1") {
		t.Errorf("log:\n%s", out)
	}
}

// Bad input to bundle gets one clear line: a directory that is no run says so (it printed the raw "open
// …/meta.json: no such file or directory"), and a pack that cannot be written names the command once (it read
// "bundle: bundle: mkdir ro: not a directory").
func TestBundleBadInputWords(t *testing.T) {
	tmp := t.TempDir()
	if code, _, errb := runCLI("bundle", tmp); code != exitUsage || !strings.Contains(errb, "is not a run") || strings.Contains(errb, "no such file") {
		t.Errorf("bundle of a plain directory: exit %d: %s", code, errb)
	}
	file := filepath.Join(tmp, "ro")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "testdata", "recorded", "quiet-rank", "runs", "0013-breaks")
	if code, _, errb := runCLI("bundle", "-o", filepath.Join(file, "x.tar.gz"), dir); code != exitFail || strings.Count(errb, "bundle") != 1 {
		t.Errorf("bundle into a file's path: exit %d: %s", code, errb)
	}
}

// presets at 80 and 60 columns never cut an environment variable in two ("TORCHINDUCTOR_FORCE_DISABLE_CACHE" /
// "S=1" copied as a wrong name).
func TestPresetsKeepEnvironmentNamesWhole(t *testing.T) {
	for _, w := range []string{"80", "60"} {
		_, out, _ := runCLI("presets", "--width", w)
		if !strings.Contains(out, "TORCHINDUCTOR_FORCE_DISABLE_CACHES=1") {
			t.Errorf("width %s:\n%s", w, out)
		}
	}
}
