package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// Realistic shapes of the secrets a repro's output can carry (none of them real).
const (
	hfToken     = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"                                                        // hf_ + 34
	awsKeyID    = "AKIAIOSFODNN7EXAMPL3"                                                                         // AKIA + 16
	awsSecret   = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"                                                     // 40
	ghpToken    = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"                                                     // ghp_ + 36
	githubPAT   = "github_pat_11ABCDEFG0aBcDeFgHiJkLmN_oPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567" // fine-grained
	bearerToken = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
)

// secretLines are what a careless repro prints: every shape the scrubber knows.
var secretLines = []string{
	"Downloading weights with token " + hfToken,
	"git clone https://alice:s3cr3t-Pa55@hub.example.com/org/repo",
	"AWS_ACCESS_KEY_ID=" + awsKeyID,
	"aws_secret_access_key = " + awsSecret,
	"pushing with " + ghpToken + " and " + githubPAT,
	"Authorization: Bearer " + bearerToken,
	"launching train.py --token=abcd1234efgh --password hunter2-Secret",
}

var secretValues = []string{hfToken, "alice", "s3cr3t-Pa55", awsKeyID, awsSecret, ghpToken, githubPAT, bearerToken,
	"abcd1234efgh", "hunter2-Secret"}

// probedRun stores a run that printed secretLines on stderr, launched with the probe's plumbing (its
// sitecustomize in probe/, PYTHONPATH and TORCHTRIAGE_PROBE_DIR) as session's withProbe sets it up.
func probedRun(t *testing.T) runs.Meta {
	t.Helper()
	s := newStore(t)
	prepare := func(dir string) ([]string, error) {
		p := filepath.Join(dir, "probe")
		if err := os.WriteFile(filepath.Join(p, "sitecustomize.py"), []byte("# the probe\n"), 0o644); err != nil {
			return nil, err
		}
		return []string{"PYTHONPATH=" + p + ":/opt/mylib", "TORCHTRIAGE_PROBE_DIR=" + p}, nil
	}
	argv := append([]string{"sh", "-c", `printf '%s\n' "$@" >&2`, "sh"}, secretLines...)
	r, err := Start(context.Background(), s, runs.Spec{Argv: argv, Preset: "breaks", Prepare: prepare}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Wait()
	if got := readFile(t, filepath.Join(r.Dir, "stderr.log")); !strings.Contains(got, hfToken) || !strings.Contains(got, "alice:s3cr3t-Pa55@") {
		t.Fatalf("the repro did not print the secrets: the test would prove nothing\n%s", got)
	}
	return m
}

// Acceptance: a bundle of a run that printed an hf_… token and user:pass@host (and the other shapes) contains
// none of them, in any file, and its README says what was scrubbed; --no-scrub packs the logs as they are.
func TestBundleScrubsSecretsFromTheLogs(t *testing.T) {
	m := probedRun(t)
	out := filepath.Join(t.TempDir(), "pack.tar.gz")
	findings := "## torchtriage report\n\n- print() breaks the graph in step (r05_dist_c10d.py:10) · seen with " + hfToken + "\n"
	versions := []runs.ProcessVersions{
		{Rank: 0, Torch: "2.14.1+cu128", Python: "3.12.3", CUDA: "12.8", GPU: "NVIDIA H100 80GB HBM3", Capability: "9.0", Driver: "570.124.06"},
		{Rank: 1, Torch: "2.14.1+cu128", Python: "3.12.3", CUDA: "12.8", GPU: "NVIDIA H100 80GB HBM3", Capability: "9.0", Driver: "570.124.06"},
	}
	if err := runs.Bundle(m.Dir, out, runs.BundleOptions{Findings: findings, Versions: versions}); err != nil {
		t.Fatal(err)
	}
	files := readBundle(t, out)
	root := m.Name + "/"
	for name, data := range files {
		for _, v := range secretValues {
			if strings.Contains(data, v) {
				t.Errorf("%s contains %q", name, v)
			}
		}
	}
	if !strings.Contains(files[root+"stderr.log"], "git clone https://<redacted>@hub.example.com/org/repo") {
		t.Errorf("stderr.log in the pack:\n%s", files[root+"stderr.log"])
	}
	readme := files[root+"README.md"]
	for _, rule := range []string{runs.RuleHuggingFace, runs.RuleURLCredentials, runs.RuleAWSKeyID, runs.RuleAWSSecret, runs.RuleGitHub, runs.RuleBearer, runs.RuleSecretFlag} {
		if !strings.Contains(readme, "| "+rule+" | ") {
			t.Errorf("README does not count %q:\n%s", rule, readme)
		}
	}
	if _, ok := files[root+"probe/sitecustomize.py"]; ok {
		t.Error("the probe's sitecustomize.py is in the pack")
	}
	for _, want := range []string{"TORCH_LOGS=graph_breaks,recompiles", "PYTHONPATH=/opt/mylib", "torch 2.14.1+cu128",
		"CUDA 12.8", "NVIDIA H100 80GB HBM3", "driver 570.124.06", "ranks 0-1", "print() breaks the graph in step"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README lacks %q:\n%s", want, readme)
		}
	}
	for _, not := range []string{"TORCHTRIAGE_PROBE_DIR", filepath.Join(m.Dir, "probe"), "unknown"} {
		if strings.Contains(readme, not) {
			t.Errorf("README has %q:\n%s", not, readme)
		}
	}

	raw := filepath.Join(t.TempDir(), "raw.tar.gz")
	if err := runs.Bundle(m.Dir, raw, runs.BundleOptions{NoScrub: true}); err != nil {
		t.Fatal(err)
	}
	files = readBundle(t, raw)
	if !strings.Contains(files[root+"stderr.log"], hfToken) || !strings.Contains(files[root+"README.md"], "--no-scrub") {
		t.Errorf("--no-scrub: the logs are not as the run wrote them, or the README does not say so:\n%s", files[root+"README.md"])
	}
}
