package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCheck(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(append([]string{"check"}, args...), nil, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheckUsageErrors(t *testing.T) {
	r05 := fx("torch-2.6/r05_dist_c10d.triage.log")
	bad := filepath.Join(t.TempDir(), "bad.json")
	_ = os.WriteFile(bad, []byte(`{"schema": "something/else", "items": []}`), 0o644)
	notJSON := filepath.Join(t.TempDir(), "nj.json")
	_ = os.WriteFile(notJSON, []byte("{"), 0o644)
	cases := [][]string{
		{r05},                       // no rule
		{"--max-graph-breaks", "0"}, // no input
		{r05, "--format", "yaml", "--no-limit-hits"},
		{"/nonexistent/x.log", "--no-limit-hits"},
		{r05, "--baseline", "/nonexistent/b.json"},
		{r05, "--baseline", bad},
		{r05, "--baseline", notJSON},
		{r05, "--max-graph-breaks", "many"},
		{r05, "--baseline", bad, "--write-baseline", bad},
	}
	for _, args := range cases {
		code, _, errs := runCheck(t, args...)
		if code != 2 || !strings.HasPrefix(errs, "torchtriage check: ") && !strings.Contains(errs, "invalid value") {
			t.Errorf("%v: code %d stderr %q", args, code, errs)
		}
	}
	if code, _, _ := runCheck(t, "--help"); code != 0 {
		t.Errorf("--help: %d", code)
	}
}
