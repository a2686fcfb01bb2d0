package cli

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// bundle packs a stored run by number or directory, -o/--output places it; a missing or unknown run is a usage
// error (exit 2).
func TestCmdBundle(t *testing.T) {
	t.Chdir(t.TempDir())
	s, err := runs.OpenStore("")
	if err != nil {
		t.Fatal(err)
	}
	dir, _, err := session.RunToEnd(s, runs.Spec{Argv: []string{"true"}, Preset: "eager"}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI("bundle", "1")
	if code != 0 {
		t.Fatalf("bundle 1: exit %d: %s", code, errs)
	}
	if _, err := os.Stat("0001-eager.tar.gz"); err != nil || !strings.Contains(out, "0001-eager.tar.gz") {
		t.Errorf("default output: %v, %q", err, out)
	}
	if code, _, errs := runCLI("bundle", dir, "-o", "x/out.tgz"); code != 0 {
		t.Fatalf("bundle DIR -o: exit %d: %s", code, errs)
	}
	if !tarHas(t, "x/out.tgz", "0001-eager/meta.json") {
		t.Error("out.tgz lacks 0001-eager/meta.json")
	}
	if code, _, errs := runCLI("bundle"); code != 2 || !strings.Contains(errs, "want one run") {
		t.Errorf("no args: exit %d %q", code, errs)
	}
	if code, _, errs := runCLI("bundle", "7"); code != 2 || !strings.Contains(errs, "no run 7") {
		t.Errorf("missing run: exit %d %q", code, errs)
	}
}

func tarHas(t *testing.T, path, name string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			return false
		}
		if h.Name == name {
			return true
		}
	}
}

// unpack extracts a tar.gz (with tar(1), as the person who gets the pack does) and returns its files by name.
func unpack(t *testing.T, pack string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("tar", "-xzf", pack, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("tar -xzf %s: %v\n%s", pack, err, out)
	}
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// probeFile is what the probe writes for one rank of a 2-rank CUDA run (triage/probe/sitecustomize.py).
func probeFile(rank int) string {
	return fmt.Sprintf(`{"argv0": "r05_dist_c10d.py", "capability": "9.0", "config": {}, "counters": {}, "cuda": "12.8",
 "driver": "570.124.06", "env": {}, "gpu": "NVIDIA H100 80GB HBM3", "host": "node-1", "local_rank": %d, "pid": %d,
 "python": "3.12.3", "rank": %d, "rank_source": "env", "torch": "2.14.1+cu128", "world_size": 2}`, rank, 4242+rank, rank)
}

// A pack for an upstream issue: the run printed an hf_ token and user:pass@host next to its PyTorch log; the
// pack has neither, its README gives the probe's versions, the rerun command with TORCH_LOGS and without the
// probe's plumbing, the findings as Markdown and the scrub counts; --no-scrub packs the logs as written.
func TestCmdBundleForAnUpstreamIssue(t *testing.T) {
	log, err := filepath.Abs(fx("torch-2.14/r05_dist_c10d.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	s, err := runs.OpenStore("")
	if err != nil {
		t.Fatal(err)
	}
	const token = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"
	script := `cat "$0" >&2; echo "hub login $1" >&2; echo "fetch https://bob:Hunter2pass@hub.example.com/m" >&2`
	dir, _, err := session.RunToEnd(s, runs.Spec{Argv: []string{"sh", "-c", script, log, token}}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "probe", "sitecustomize.py")); err != nil {
		t.Fatalf("the run was not probed: %v", err)
	}
	for r := 0; r < 2; r++ {
		if err := os.WriteFile(filepath.Join(dir, "probe", fmt.Sprintf("rank%d-%d.json", r, 4242+r)), []byte(probeFile(r)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errs := runCLI("bundle", "1", "-o", "pack.tgz"); code != 0 {
		t.Fatalf("bundle: exit %d: %s", code, errs)
	}
	files := unpack(t, "pack.tgz")
	root := filepath.Base(dir) + "/"
	for name, data := range files {
		for _, secret := range []string{token, "bob", "Hunter2pass"} {
			if strings.Contains(data, secret) {
				t.Errorf("%s contains %q", name, secret)
			}
		}
	}
	if _, ok := files[root+"probe/sitecustomize.py"]; ok {
		t.Error("the probe's sitecustomize.py is in the pack")
	}
	readme := files[root+"README.md"]
	for _, want := range []string{"ranks 0-1: torch 2.14.1+cu128 · CUDA 12.8 · GPU NVIDIA H100 80GB HBM3 (sm 9.0) · driver 570.124.06",
		"TORCH_LOGS=graph_breaks,recompiles", "## torchtriage report", "torch 2.14.1+cu128 · ranks 0,1", "print()", "gb-print",
		"| Hugging Face token (hf_…) |", "| user:password@ in a URL |"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README lacks %q:\n%s", want, readme)
		}
	}
	for _, not := range []string{"TORCHTRIAGE_PROBE_DIR", "PYTHONPATH", "unknown"} {
		if strings.Contains(readme, not) {
			t.Errorf("README has %q:\n%s", not, readme)
		}
	}
	if code, _, errs := runCLI("bundle", "1", "--no-scrub", "-o", "raw.tgz"); code != 0 {
		t.Fatalf("bundle --no-scrub: exit %d: %s", code, errs)
	}
	if raw := unpack(t, "raw.tgz"); !strings.Contains(raw[root+"stderr.log"], token) {
		t.Error("--no-scrub scrubbed the logs")
	}
}

// The pack's report is the report of the run, run facts included: the caught_quiet run (exit 0, TORCH_LOGS
// graph_breaks,recompiles; testdata/recorded/caught-compile) was packed with "graph breaks unknown (no sign
// graph_breaks was on)" and "First failure: the process failed" while `report` of the same directory said
// "graph breaks 0 distinct" and "compile errors 0 (1 caught)".
func TestCmdBundleReportIsTheRunsReport(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "recorded", "caught-compile", "runs", "0001-breaks"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if code, _, errs := runCLI("bundle", dir, "-o", "pack.tgz"); code != 0 {
		t.Fatalf("bundle: exit %d: %s", code, errs)
	}
	readme := unpack(t, "pack.tgz")["0001-breaks/README.md"]
	for _, want := range []string{"| 0 distinct (0 records) | 0 | 0 |", "| 0 (1 caught) | 0 |", "not steady — 1 compile error caught by the program"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README lacks %q:\n%s", want, readme)
		}
	}
	for _, not := range []string{"unknown", "the process failed"} {
		if strings.Contains(readme, not) {
			t.Errorf("README has %q:\n%s", not, readme)
		}
	}
}
