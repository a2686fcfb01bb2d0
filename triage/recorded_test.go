package triage_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// A run whose TORCH_LOGS torch rejected at import (real 2.14.1, testdata/recorded/invalid-logs) logged nothing:
// its counts are no count of breaks or recompiles ("graph breaks 0 distinct" claimed logging had shown none), the
// basis says torch rejected the setting, and the error's place is the program's `import torch` (quick.py:1), not
// the tool's import hook its traceback passes through (probe/sitecustomize.py).
func TestRunWhoseTorchLogsTorchRejected(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "invalid-logs", "runs", "0006-custom")
	out := triagetest.ReportText(t, 200, dir)
	for _, bad := range []string{"graph breaks 0", "recompiles 0", "sitecustomize"} {
		if strings.Contains(out, bad) {
			t.Errorf("report says %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"graph breaks not logged", "recompiles not logged", "torch rejected it", "quick.py:1"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// Two ranks died (real 2.14.1, testdata/recorded/dist-crash): rank 1 of its own error, rank 0 of the connection
// rank 1's death closed. The verdict's example, the next step and the first error finding are the first failure
// (torchrun's root cause), not the consequence: they told the user to fix gloo's "Connection closed by peer".
func TestCrashVerdictNamesTheFirstFailure(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "dist-crash", "runs", "0001-breaks")
	out := triagetest.ReportText(t, 300, dir)
	verdict, next, findings := lineWith(out, "Verdict:"), lineWith(out, "Next step:"), lineWith(out, "  HIGH ")
	for name, l := range map[string]string{"verdict": verdict, "next step": next, "first finding": findings} {
		if !strings.Contains(l, "boom on rank 1") {
			t.Errorf("%s: %q\n%s", name, l, out)
		}
	}
	// rank 0 died of rank 1's death, not of its own error (testdata/recorded/peer-abort has more)
	if !strings.Contains(verdict, "1 process died of a runtime error: the program's own error: RuntimeError — boom on rank 1") ||
		!strings.Contains(verdict, "1 process died of its peer's failure") {
		t.Errorf("verdict %q", verdict)
	}
}

// Ranks of a run that did not complete are not said to agree: rank 1 died and rank 0 was stopped, so what either
// never reached is not known (real 2.14.1, testdata/recorded/dist-crash: "all 2 ranks agree" of a crashed job).
// Nor are ranks that compiled nothing (torch.compile off).
func TestRankAgreementOfAnUnfinishedRun(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "dist-crash", "runs", "0001-breaks")
	out := triagetest.ReportText(t, 300, dir)
	if l := lineWith(out, "Rank agreement:"); strings.Contains(l, "agree (") || !strings.Contains(l, "not compared: the run did not complete (exited with code 1)") {
		t.Errorf("rank agreement %q", l)
	}
}

// The tool's timeout interrupted a program that turned the KeyboardInterrupt into its own RuntimeError (real
// 2.14.1, testdata/recorded/interrupt-reraise): that is how the process went down under the tool's stop, not a
// crash to fix. check did not complete (exit 3), not a failed --no-compile-errors (exit 1, "1 runtime error");
// the report does not tell the user to fix a crash.
func TestErrorRaisedWhileHandlingTheToolsInterrupt(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "interrupt-reraise", "runs", "0001-breaks")
	code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileErrors: true}}, dir)
	if code != gate.ExitDidNotComplete || strings.Contains(out, "FAIL") || strings.Contains(errb, "first failure") {
		t.Errorf("check: exit %d\nstdout %s\nstderr %s", code, out, errb)
	}
	out = triagetest.ReportText(t, 300, dir)
	for _, bad := range []string{"fix the crash", "crashed", "runtime errors 1"} {
		if strings.Contains(out, bad) {
			t.Errorf("report says %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(lineWith(out, "Verdict:"), "stopped by torchtriage (timed out after 8s)") {
		t.Errorf("verdict %q", lineWith(out, "Verdict:"))
	}
}

// torchrun died at rendezvous with "RendezvousConnectionError: … See inner exception for details.", raised from
// "DistStoreError: use_libuv was requested but PyTorch was built without libuv support, run with USE_LIBUV=0 …"
// (real 2.14.1, testdata/recorded/rendezvous-libuv). The first failure and the finding name that cause, not only
// the outer error, and do not guess a port in use.
func TestChainedCauseOfALauncherFailure(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "rendezvous-libuv", "runs", "0001-breaks")
	out := triagetest.ReportText(t, 400, dir)
	if l := lineWith(out, "First failure:"); !strings.Contains(l, "caused by DistStoreError: use_libuv was requested") {
		t.Errorf("first failure %q", l)
	}
	if strings.Contains(out, "port error") {
		t.Errorf("report guesses a port in use:\n%s", out)
	}
	js := triagetest.ReportJSON(t, dir)
	if !strings.Contains(js, `"cause": "DistStoreError: use_libuv was requested`) {
		t.Errorf("json lacks the cause:\n%s", js)
	}
	// the finding's title keeps the cause whole, its instruction included ("…run with USE_LIBUV=0 to…" was cut at
	// the title's 200 characters): where the title is too long, the outer message gives way, not the cause
	var doc struct {
		Findings []struct{ Title string } `json:"findings"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil || len(doc.Findings) == 0 ||
		!strings.HasSuffix(doc.Findings[0].Title, "run with USE_LIBUV=0 to disable it.)") {
		t.Errorf("finding title %+v (%v)", doc.Findings, err)
	}
	// the finding's playbook is the cause's, not the generic one of a crash
	if !strings.Contains(out, "playbook dist-rendezvous-libuv") {
		t.Errorf("report's playbook:\n%s", out)
	}
	// the launcher died before any rank ran: the run did not start, no process of the program "crashed"
	if v := lineWith(out, "Verdict:"); !strings.Contains(v, "did not start") || !strings.Contains(v, "before any rank") || strings.Contains(v, "crashed") {
		t.Errorf("verdict %q", v)
	}
}

// A dotted TORCH_LOGS name that is no module (--logs foo.bar, real 2.14.1, testdata/recorded/invalid-logs 0001):
// import torch dies of ModuleNotFoundError inside torch's reading of TORCH_LOGS. That is the TORCH_LOGS rejected,
// as for an unknown name: no break count, and the basis says so.
func TestDottedTorchLogsNameOfNoModule(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "invalid-logs", "runs", "0001-custom")
	out := triagetest.ReportText(t, 300, dir)
	if strings.Contains(out, "graph breaks 0") || !strings.Contains(out, "torch rejected it") ||
		!strings.Contains(lineWith(out, "First failure:"), "raised by torch reading TORCH_LOGS") {
		t.Errorf("report:\n%s", out)
	}
	// its finding gets the TORCH_LOGS playbook, not the generic crash's (whose 'the crash happens eager too' test
	// would point at the program)
	if !strings.Contains(out, "playbook err-invalid-torch-logs") || strings.Contains(out, "generic-runtime_error") {
		t.Errorf("playbook:\n%s", out)
	}
	// the verdict names the setting, not a crash of the program
	if v := lineWith(out, "Verdict:"); !strings.Contains(v, "did not start: torch rejected TORCH_LOGS") || strings.Contains(v, "crashed") {
		t.Errorf("verdict: %s", v)
	}
	// and its next step is the setting, not "fix the crash" (whose goal says a process "compiled and ran nothing
	// after that point": this one never reached the program)
	if next := out[strings.Index(out, "Next step"):]; !strings.Contains(next, "fix TORCH_LOGS first") || strings.Contains(next, "compiled and ran nothing") {
		t.Errorf("next step:\n%s", next)
	}
}
