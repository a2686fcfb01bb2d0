package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
)

func checkCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(append([]string{"check"}, args...), nil, &out, &errb)
	return code, out.String(), errb.String()
}

// check -- CMD launches the repro, stores the run and gates on what it printed; exit 3 when it did not complete.
func TestCheckLaunchesTheRepro(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	fix, _ := filepath.Abs(filepath.Join(fixtures, "torch-2.14/r05_dist_c10d.triage.log"))
	full, _ := filepath.Abs(filepath.Join(fixtures, "torch-2.14/r07_fullgraph.triage.log"))

	code, out, errs := checkCmd(t, "--store", store, "--no-probe", "--max-graph-breaks", "1", "--", "sh", "-c", "cat "+fix+" >&2")
	if code != 0 || !strings.Contains(errs, "run stored in") {
		t.Fatalf("pass: code %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = checkCmd(t, "--store", store, "--no-probe", "--ranks-agree", "--", "sh", "-c", "cat "+fix+" >&2")
	if code != 1 || !strings.Contains(out, "rank") {
		t.Fatalf("ranks disagree: code %d\n%s", code, out)
	}
	code, _, errs = checkCmd(t, "--store", store, "--no-probe", "--max-graph-breaks", "1", "--", "sh", "-c", "echo last words >&2; exit 4")
	if code != gate.ExitDidNotComplete || !strings.Contains(errs, "exited with code 4") || !strings.Contains(errs, "last words") {
		t.Fatalf("non-zero exit: code %d\n%s", code, errs)
	}
	code, _, errs = checkCmd(t, "--store", store, "--no-probe", "--timeout", "300ms", "--max-graph-breaks", "1", "--", "sh", "-c", "echo started >&2; sleep 20")
	if code != gate.ExitDidNotComplete || !strings.Contains(errs, "stopped by torchtriage (timed out after 300ms)") {
		t.Fatalf("timeout: code %d\n%s", code, errs)
	}
	// A compile error explains the non-zero exit: the gate decides.
	code, out, _ = checkCmd(t, "--store", store, "--no-probe", "--no-compile-errors", "--", "sh", "-c", "cat "+full+" >&2; exit 1")
	if code != 1 || !strings.Contains(out, "Unsupported") {
		t.Fatalf("compile error: code %d\n%s", code, out)
	}
	if code, _, _ = checkCmd(t, "--max-graph-breaks", "1", fix, "--", "true"); code != 2 {
		t.Fatalf("paths and -- CMD together: code %d", code)
	}
}

// --logs replaces the preset's TORCH_LOGS names (the run is then "custom"); a malformed name is a usage error,
// a name torch does not have a warning with the closest one.
func TestLaunchWithLogs(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	code, _, errs := checkCmd(t, "--store", store, "--no-probe", "--allow-no-evidence", "--max-graph-breaks", "9", "--logs", "graph_breaks,+dynamo",
		"--", "sh", "-c", `echo "TORCH_LOGS=$TORCH_LOGS" >&2`)
	if code != 0 {
		t.Fatalf("check --logs: exit %d\n%s", code, errs)
	}
	runs, _ := filepath.Glob(filepath.Join(store, "0001-custom", "stderr.log"))
	if len(runs) != 1 {
		t.Fatalf("no run 0001-custom in %s", store)
	}
	if out, _ := os.ReadFile(runs[0]); !strings.Contains(string(out), "TORCH_LOGS=graph_breaks,+dynamo,recompiles") {
		t.Errorf("the repro saw %q", out)
	}
	code, _, errs = checkCmd(t, "--store", store, "--max-graph-breaks", "9", "--logs", "graph breaks", "--", "true")
	if code != 2 || !strings.Contains(errs, `--logs: "graph breaks" is not a TORCH_LOGS name`) {
		t.Errorf("malformed --logs: exit %d %q", code, errs)
	}
	code, _, errs = checkCmd(t, "--store", store, "--no-probe", "--allow-no-evidence", "--max-graph-breaks", "9", "--logs", "graph_braeks", "--", "true")
	if code != 0 || !strings.Contains(errs, `warning: --logs: the newest torch torchtriage knows (2.14) has no TORCH_LOGS name "graph_braeks" (did you mean graph_breaks?)`) {
		t.Errorf("misspelt --logs: exit %d %q", code, errs)
	}
}

// check --expect-crash (a break-it test) on real processes: a crash passes, success and a hang fail, with logs
// alone it is a usage error; check -- CMD has a timeout even when none is given.
func TestCheckExpectCrash(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	if code, out, errs := checkCmd(t, "--store", store, "--no-probe", "--expect-crash", "--", "sh", "-c", "echo 'ValueError: boom' >&2; exit 3"); code != 0 ||
		!strings.Contains(out, "crashed as expected: exited with code 3") {
		t.Errorf("crash: code %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs := checkCmd(t, "--store", store, "--no-probe", "--expect-crash", "--", "true"); code != 1 || !strings.Contains(out, "the command succeeded") {
		t.Errorf("success: code %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs := checkCmd(t, "--store", store, "--no-probe", "--expect-crash", "--timeout", "300ms", "--", "sleep", "20"); code != 1 ||
		!strings.Contains(out, "did not crash: torchtriage stopped it (timed out after 300ms)") {
		t.Errorf("hang: code %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := checkCmd(t, "--expect-crash", filepath.Join(fixtures, "torch-2.14/r05_dist_c10d.triage.log")); code != exitUsage || !strings.Contains(errs, "-- CMD") {
		t.Errorf("logs alone: code %d\n%s", code, errs)
	}
	if f := newCheckCmd().Flags().Lookup("timeout"); f == nil || f.DefValue != "30m0s" {
		t.Errorf("check's --timeout default: %v", f)
	}
}
