package runner

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// What a launch records in its run directory (meta.json, triage/runs) and the environment it gives the repro.

func TestChildEnvDecidesTorchVariables(t *testing.T) {
	base := []string{"HOME=/root", "TORCH_LOGS=+all", "TORCH_TRACE=/tmp/x", "TORCHDYNAMO_DISABLE=1", "A=old", "TORCHTRIAGE_REAPER=1"}
	got := childEnv(base, []string{"PYTHONUNBUFFERED=1", "TORCH_LOGS=graph_breaks", "A=new"}, "tok")
	want := []string{"HOME=/root", "PYTHONUNBUFFERED=1", "TORCH_LOGS=graph_breaks", "A=new", "TORCHTRIAGE_RUN=tok"}
	if !slices.Equal(got, want) {
		t.Errorf("childEnv = %q\nwant %q", got, want)
	}
}

func TestSecretsNeverWritten(t *testing.T) {
	t.Parallel()
	const secret = "hf_s3cr3t_value_123"
	s := newStore(t)
	r, err := Start(context.Background(), s, runs.Spec{
		Argv: []string{"sh", testdata(t, "echo.sh"), "--api-key", secret, "--hf-token=" + secret},
		Env: map[string]string{"HF_TOKEN": secret, "My_Api_Key": secret, "AWS_SECRET_ACCESS_KEY": secret,
			"DB_PASSWORD": secret, "GOOGLE_APPLICATION_CREDENTIALS": secret, "BATCH": "4"},
		Preset: "eager",
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Wait()
	raw := readFile(t, filepath.Join(r.Dir, "meta.json"))
	if strings.Contains(raw, secret) {
		t.Fatalf("meta.json contains the secret:\n%s", raw)
	}
	for _, k := range []string{"HF_TOKEN", "My_Api_Key", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "GOOGLE_APPLICATION_CREDENTIALS"} {
		if m.Env[k] != runs.Redacted {
			t.Errorf("%s = %q, want %s", k, m.Env[k], runs.Redacted)
		}
	}
	if m.Env["BATCH"] != "4" {
		t.Errorf("BATCH = %q: ordinary variables must stay", m.Env["BATCH"])
	}
	if !slices.Contains(m.UserArgv, "--hf-token="+runs.Redacted) || !slices.Contains(m.Argv, "--api-key") ||
		slices.Index(m.Argv, runs.Redacted) != slices.Index(m.Argv, "--api-key")+1 {
		t.Errorf("argv not redacted: %q", m.Argv)
	}
}

// A run whose tool was SIGKILLed stays "running" in meta.json; once loaded, its supervisor is known to be gone
// and it reads as interrupted, in LoadRun and in the store's listing.
func TestRunOfAKilledToolIsInterrupted(t *testing.T) {
	t.Parallel()
	tool, dir := startHelperTool(t, "sh "+testdata(t, "family.sh"), testGrace)
	pids := familyPids(t, dir)
	if m, err := runs.LoadRun(dir); err != nil || m.State != runs.StateRunning {
		t.Fatalf("while the tool lives: state %q, %v; want running", m.State, err)
	}
	if err := tool.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = tool.Wait()
	assertAllGone(t, pids, 10*time.Second)
	if m, err := runs.LoadRun(dir); err != nil || m.State != "interrupted" {
		t.Errorf("after SIGKILL: state %q, %v; want interrupted", m.State, err)
	}
	store := &runs.Store{Dir: filepath.Dir(dir)}
	if list, err := store.List(); err != nil || len(list) != 1 || list[0].State != "interrupted" {
		t.Errorf("listing: %+v, %v; want the run interrupted", list, err)
	}
}
