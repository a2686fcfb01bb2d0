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

// compare of one script on torch 2.14.1 and 2.6 (testdata/recorded/int-recompiles): the headline names the torch
// change (it named only Python's), and a process without rank is no "rank -1".
func TestCompareNamesTheTorchVersionChange(t *testing.T) {
	runs := filepath.Join("..", "testdata", "recorded", "int-recompiles", "runs")
	a, b := filepath.Join(runs, "0001-breaks"), filepath.Join(runs, "0002-breaks")
	_, out, _ := runCLI("compare", a, b)
	if l := lineWith(out, "versions differ"); !strings.Contains(l, "versions differ: version.torch: 2.14.1+debian → 2.6.0+debian") {
		t.Errorf("headline %q\n%s", l, out)
	}
	_, js, _ := runCLI("compare", "--format", "json", a, b)
	if strings.Contains(js, "rank -1") {
		t.Errorf("json names rank -1:\n%s", js)
	}
}

// diff of two stored runs of different scripts says so before anything is called new or gone (testdata/recorded:
// quiet-rank's dist.py against silenced-rank's quiet2.py); runs of one script under two presets (baseline-compile)
// are the same command.
func TestDiffOfRunsOfDifferentCommands(t *testing.T) {
	rec := filepath.Join("..", "testdata", "recorded")
	_, out, _ := runCLI("diff", "--width", "300", filepath.Join(rec, "quiet-rank", "runs", "0013-breaks"), filepath.Join(rec, "silenced-rank", "runs", "0001-breaks"))
	if !strings.Contains(out, "A and B ran different commands") {
		t.Errorf("diff:\n%s", out)
	}
	_, out, _ = runCLI("diff", "--width", "300", filepath.Join(rec, "baseline-compile", "runs", "0008-breaks"), filepath.Join(rec, "baseline-compile", "runs", "0020-trace"))
	if strings.Contains(out, "different commands") {
		t.Errorf("diff of one script's runs:\n%s", out)
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
