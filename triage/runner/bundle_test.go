package runner

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// readBundle returns the files of a tar.gz by name.
func readBundle(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := map[string]string{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = string(data)
	}
}

func TestBundle(t *testing.T) {
	const secret = "hf_bundle_s3cr3t"
	t.Setenv("HF_TOKEN", secret) // the tool's environment: its value is masked everywhere
	s := newStore(t)
	r, err := Start(context.Background(), s, runs.Spec{
		Argv:   []string{"sh", "-c", `cat "$0"; echo "token is $HF_TOKEN"`, "repro.py"},
		Dir:    testdata(t, "."),
		Env:    map[string]string{"HF_TOKEN": secret, "BATCH": "4"},
		Preset: "trace", TorchVersion: "2.6",
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Wait()
	if !strings.Contains(readFile(t, filepath.Join(r.Dir, "stdout.log")), secret) {
		t.Fatal("the repro did not print the secret: the masking test would prove nothing")
	}
	must(t, os.WriteFile(filepath.Join(r.Dir, "probe", "stacks.txt"), []byte("stack of rank 0\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(r.Dir, "trace", "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(r.Dir, "trace", "sub", "dedicated_log_torch_trace_rank_0.log"), []byte("{}\n"), 0o644))

	out := filepath.Join(t.TempDir(), "packs", "pack.tar.gz")
	if err := runs.Bundle(r.Dir, out, runs.BundleOptions{}); err != nil {
		t.Fatal(err)
	}
	files := readBundle(t, out)
	root := "0001-trace/"
	for _, name := range []string{"meta.json", "stdout.log", "stderr.log", "combined.log", "probe/stacks.txt",
		"trace/sub/dedicated_log_torch_trace_rank_0.log", "repro/repro.py", "versions.txt", "README.md"} {
		if _, ok := files[root+name]; !ok {
			t.Errorf("bundle lacks %s (has %v)", name, keys(files))
		}
	}
	for name, data := range files {
		if strings.Contains(data, secret) {
			t.Errorf("%s contains the secret", name)
		}
	}
	if got := files[root+"repro/repro.py"]; got != readFile(t, testdata(t, "repro.py")) {
		t.Errorf("repro.py in bundle = %q", got)
	}
	if got := files[root+"stdout.log"]; !strings.Contains(got, "token is "+runs.Redacted) {
		t.Errorf("stdout.log in bundle = %q, want the secret masked", got)
	}
	readme := files[root+"README.md"]
	for _, want := range []string{"cd " + testdata(t, "."), "'HF_TOKEN=<redacted>'", "BATCH=4", "TORCH_LOGS=graph_breaks,recompiles",
		`sh -c 'cat "$0"; echo "token is $HF_TOKEN"' repro.py`, "exited (exit 0)"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README lacks %q:\n%s", want, readme)
		}
	}
	if !strings.Contains(files[root+"versions.txt"], "torch: 2.6") {
		t.Errorf("versions.txt = %q", files[root+"versions.txt"])
	}
	if err := runs.Bundle(t.TempDir(), out, runs.BundleOptions{}); err == nil {
		t.Error("bundling a directory without meta.json succeeded")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The secrets a run was given are scrubbed from its bundle wherever they appear, though the shell that packs it no
// longer holds them: a secret-named variable of the run's environment (gone from the bundling shell) and the value
// of a secret flag printed in a shape no rule knows (Python's argv list: '--token', 'tok_xyz789'). Neither value is
// kept in the run dir: meta.json holds salted prints of them, which the bundle leaves out.
func TestBundleScrubsTheRunsOwnSecrets(t *testing.T) {
	const envSecret, flagSecret = "s3cr3tvalue123", "tok_xyz789"
	t.Setenv("MY_API_TOKEN", envSecret) // the run's environment
	s := newStore(t)
	r, err := Start(context.Background(), s, runs.Spec{
		Argv: []string{"sh", "-c", `echo "token is $MY_API_TOKEN argv ['x.py', '$1', '$2']"`, "repro.py", "--token", flagSecret},
		Dir:  testdata(t, "."),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Wait()
	if out := readFile(t, filepath.Join(r.Dir, "stdout.log")); !strings.Contains(out, envSecret) || !strings.Contains(out, flagSecret) {
		t.Fatalf("the repro did not print the secrets: %q", out)
	}
	meta := readFile(t, filepath.Join(r.Dir, "meta.json"))
	if strings.Contains(meta, envSecret) || strings.Contains(meta, flagSecret) {
		t.Fatalf("meta.json keeps a secret:\n%s", meta)
	}
	t.Setenv("MY_API_TOKEN", "") // packed from another shell
	out := filepath.Join(t.TempDir(), "pack.tar.gz")
	if err := runs.Bundle(r.Dir, out, runs.BundleOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, data := range readBundle(t, out) {
		if strings.Contains(data, envSecret) || strings.Contains(data, flagSecret) {
			t.Errorf("%s contains a secret:\n%s", name, data)
		}
		if strings.HasSuffix(name, "meta.json") && strings.Contains(data, `"secrets"`) {
			t.Errorf("the bundle's meta.json keeps the secrets' prints:\n%s", data)
		}
	}
}

// The README says values were redacted only where its rerun command shows one.
func TestBundleReadmeRedactionNoteOnlyWithARedaction(t *testing.T) {
	s := newStore(t)
	r, err := Start(context.Background(), s, runs.Spec{Argv: []string{"sh", "-c", "echo hi"}, Dir: testdata(t, ".")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Wait()
	out := filepath.Join(t.TempDir(), "pack.tar.gz")
	if err := runs.Bundle(r.Dir, out, runs.BundleOptions{}); err != nil {
		t.Fatal(err)
	}
	if readme := readBundle(t, out)["0001-breaks/README.md"]; readme == "" || strings.Contains(readme, "were secrets") {
		t.Errorf("README of a run without secrets:\n%s", readme)
	}
}
