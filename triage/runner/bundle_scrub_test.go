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

// Acceptance: passwords printed as key=value pairs — in a URL's query, bare, as an env-style line — and written
// in the repro script are gone from every file of the pack (stdout, stderr, combined, the packed script), though
// neither the run nor the bundling shell was given them (the script holds them); the README counts them, and what
// only looks like a secret key (the shell's pwd, a password file's path, code that reads a secret) stays.
func TestBundleScrubsSecretKeyValues(t *testing.T) {
	const pw, pw2, pw3 = "Hunter2-url-pass", "Tr0ub4dor-bare", "c0rrect-h0rse-env"
	dir := t.TempDir()
	script := strings.Join([]string{
		"import os",
		`DB = "postgres://db/app?user=bob&password=` + pw + `"`,
		`PASSWORD = "` + pw2 + `"`,
		`os.environ["MYSVC_PW"] = "` + pw3 + `"`,
		`pw = os.environ["MYSVC_PW"]`,
		"#> GET https://api.example.com/v1?user=bob&password=" + pw,
		"#> MYSVC_PW=" + pw3,
		"#> pwd",
		"#> reading --password-file /run/secrets/db",
		"#2> password=" + pw2,
		"#2> SVC_PASSWD=" + pw3, ""}, "\n")
	must(t, os.WriteFile(filepath.Join(dir, "repro.py"), []byte(script), 0o644))
	s := newStore(t)
	r, err := Start(context.Background(), s, runs.Spec{ // prints the script's "#>" lines on stdout, "#2>" on stderr
		Argv: []string{"sh", "-c", `sed -n 's/^#> //p' "$0"; sed -n 's/^#2> //p' "$0" >&2`, "repro.py"},
		Dir:  dir,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Wait()
	if out := readFile(t, filepath.Join(r.Dir, "combined.log")); !strings.Contains(out, pw) || !strings.Contains(out, pw2) || !strings.Contains(out, pw3) {
		t.Fatalf("the repro did not print the passwords: the test would prove nothing\n%s", out)
	}
	out := filepath.Join(t.TempDir(), "pack.tar.gz")
	if err := runs.Bundle(r.Dir, out, runs.BundleOptions{}); err != nil {
		t.Fatal(err)
	}
	files := readBundle(t, out)
	root := r.Meta().Name + "/"
	for _, name := range []string{"stdout.log", "stderr.log", "combined.log", "repro/repro.py"} {
		if _, ok := files[root+name]; !ok {
			t.Fatalf("the pack lacks %s (%v)", name, keys(files))
		}
	}
	for name, data := range files {
		for _, v := range []string{pw, pw2, pw3} {
			if strings.Contains(data, v) {
				t.Errorf("%s contains %q:\n%s", name, v, data)
			}
		}
	}
	for _, want := range []string{"?user=bob&password=<redacted>\n", "MYSVC_PW=<redacted>\n", "pwd\n", "reading --password-file /run/secrets/db\n",
		"password=<redacted>\n", "SVC_PASSWD=<redacted>\n"} {
		if !strings.Contains(files[root+"combined.log"], want) {
			t.Errorf("combined.log lacks %q:\n%s", want, files[root+"combined.log"])
		}
	}
	want := strings.Join([]string{
		`DB = "postgres://db/app?user=bob&password=<redacted>"`,
		`PASSWORD = "<redacted>"`,
		`os.environ["MYSVC_PW"] = "<redacted>"`,
		`pw = os.environ["MYSVC_PW"]`}, "\n")
	if !strings.Contains(files[root+"repro/repro.py"], want) {
		t.Errorf("repro.py in the pack:\n%s", files[root+"repro/repro.py"])
	}
	if readme := files[root+"README.md"]; !strings.Contains(readme, "| "+runs.RuleSecretKey+" | ") {
		t.Errorf("README does not count %q:\n%s", runs.RuleSecretKey, readme)
	}
}
