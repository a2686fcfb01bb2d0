package main

import (
	"archive/zip"
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// needTool skips the test when a command is missing.
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not found", name)
	}
	return p
}

func output(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestWheelVersions(t *testing.T) {
	py := needTool(t, "python3")
	for in, want := range map[string]string{
		"1.2.3":                        "1.2.3",
		"1.2.3-rc1":                    "1.2.3rc1",
		"1.2.3-4-gabc1234":             "1.2.3.post4+gabc1234",
		"1.2.3-4-gabc1234-dirty":       "1.2.3.post4+gabc1234.dirty",
		"0.0.0-dev+ge276192":           "0.0.0.dev0+ge276192",
		"0.0.0-dev+ge276192.dirty":     "0.0.0.dev0+ge276192.dirty",
		"0.0.0-dev":                    "0.0.0.dev0",
		"2.0.0rc2-10-g0123abc4567890f": "2.0.0rc2.post10+g0123abc4567890f",
	} {
		if got := strings.TrimSpace(output(t, nil, py, "packaging/wheel.py", "--pep440", in)); got != want {
			t.Errorf("%s -> %s, want %s", in, got, want)
		}
	}
	if err := exec.Command(py, "packaging/wheel.py", "--pep440", "banana").Run(); err == nil {
		t.Error("a version that is not one must fail")
	}
	needTool(t, "git")
	v := strings.TrimSpace(output(t, nil, "bash", "packaging/build.sh", "version"))
	if !regexp.MustCompile(`^(\d+\.\d+\.\d+\S*|0\.0\.0-dev\+g[0-9a-f]+(\.dirty)?)$`).MatchString(v) {
		t.Errorf("build.sh version %q is neither a tag nor 0.0.0-dev+gSHA", v)
	}
}

// TestWheelInstallsIntoVenv builds the binary and the wheel for this machine with packaging/build.sh, checks the
// wheel's metadata, installs it into a fresh venv with pip --no-index and runs torchtriage from it, both ways.
func TestWheelInstallsIntoVenv(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	if platform != "linux/amd64" && platform != "linux/arm64" && platform != "darwin/arm64" {
		t.Skipf("no wheel for %s", platform)
	}
	py, _ := needTool(t, "python3"), needTool(t, "bash")
	venv := filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command(py, "-m", "venv", venv).CombinedOutput(); err != nil {
		t.Skipf("python3 -m venv does not work here: %v\n%s", err, out)
	}
	pip := filepath.Join(venv, "bin", "pip")
	if _, err := os.Stat(pip); err != nil {
		t.Skip("the venv has no pip")
	}
	dist := t.TempDir()
	output(t, []string{"DIST=" + dist, "VERSION=1.2.3-4-gabc1234"}, "bash", "packaging/build.sh", platform)
	wheels, _ := filepath.Glob(filepath.Join(dist, "*.whl"))
	if len(wheels) != 1 {
		t.Fatalf("want one wheel in %s, got %v", dist, wheels)
	}
	whl := wheels[0]
	checkSums(t, dist)
	checkWheel(t, whl)

	pipEnv := []string{"PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_INPUT=1"}
	output(t, pipEnv, pip, "install", "--no-index", whl)
	want := "torchtriage 1.2.3-4-gabc1234\n"
	if got := output(t, nil, filepath.Join(venv, "bin", "torchtriage"), "version"); got != want {
		t.Errorf("torchtriage version: %q, want %q", got, want)
	}
	if got := output(t, nil, filepath.Join(venv, "bin", "python"), "-m", "torchtriage", "version"); got != want {
		t.Errorf("python -m torchtriage version: %q, want %q", got, want)
	}
	if show := output(t, pipEnv, pip, "show", "torchtriage"); !strings.Contains(show, "Version: 1.2.3.post4+gabc1234") {
		t.Errorf("pip show:\n%s", show)
	}
}

// checkSums verifies dist/SHA256SUMS: one line per built file, each hash right.
func checkSums(t *testing.T, dist string) {
	t.Helper()
	f, err := os.Open(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		sum, name, _ := strings.Cut(sc.Text(), "  ")
		data, err := os.ReadFile(filepath.Join(dist, name))
		if got := sha256.Sum256(data); err != nil || hex.EncodeToString(got[:]) != sum {
			t.Errorf("SHA256SUMS: %s does not match (%v)", name, err)
		}
	}
	if n != 2 {
		t.Errorf("SHA256SUMS has %d lines, want the binary and the wheel", n)
	}
}

// checkWheel reads the wheel as pip would: metadata, tags, an executable script, RECORD hashes.
func checkWheel(t *testing.T, path string) {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	files := map[string]string{}
	for _, f := range z.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(data)
		if strings.Contains(f.Name, ".data/scripts/") && f.Mode().Perm() != 0o755 {
			t.Errorf("%s has mode %v, want 0755", f.Name, f.Mode())
		}
	}
	info := "torchtriage-1.2.3.post4+gabc1234.dist-info/"
	meta := files[info+"METADATA"]
	for _, want := range []string{"Metadata-Version: 2.1\n", "Name: torchtriage\n", "Version: 1.2.3.post4+gabc1234\n",
		"Summary: ", "License: ", "Project-URL: Source, https://", "Requires-Python: >=3.8\n"} {
		if !strings.Contains(meta, want) {
			t.Errorf("METADATA lacks %q:\n%s", want, meta)
		}
	}
	tags := map[string]string{"linux/amd64": "manylinux2014_x86_64", "linux/arm64": "manylinux2014_aarch64",
		"darwin/arm64": "macosx_11_0_arm64"}[runtime.GOOS+"/"+runtime.GOARCH]
	if w := files[info+"WHEEL"]; !strings.Contains(w, "Root-Is-Purelib: false\n") || !strings.Contains(w, "Tag: py3-none-"+tags+"\n") {
		t.Errorf("WHEEL:\n%s", w)
	}
	if name := filepath.Base(path); !strings.HasPrefix(name, "torchtriage-1.2.3.post4+gabc1234-py3-none-") ||
		!strings.Contains(name, tags) || !strings.HasSuffix(name, ".whl") {
		t.Errorf("wheel name %s lacks the platform tag %s", filepath.Base(path), tags)
	}
	for _, want := range []string{"torchtriage/__init__.py", "torchtriage/__main__.py", "torchtriage-1.2.3.post4+gabc1234.data/scripts/torchtriage"} {
		if _, ok := files[want]; !ok {
			t.Errorf("the wheel lacks %s", want)
		}
	}
	record := strings.Split(strings.TrimSpace(files[info+"RECORD"]), "\n")
	if len(record) != len(files) {
		t.Errorf("RECORD lists %d files, the wheel has %d", len(record), len(files))
	}
	for _, line := range record {
		parts := strings.Split(line, ",")
		if parts[0] == info+"RECORD" {
			continue
		}
		sum := sha256.Sum256([]byte(files[parts[0]]))
		want := "sha256=" + base64.RawURLEncoding.EncodeToString(sum[:])
		if len(parts) != 3 || parts[1] != want || parts[2] != fmt.Sprint(len(files[parts[0]])) {
			t.Errorf("RECORD line %q, want hash %s", line, want)
		}
	}
}
