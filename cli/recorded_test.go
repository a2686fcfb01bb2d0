package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A run whose TORCH_LOGS torch rejected at import (real 2.14.1, testdata/recorded/invalid-logs) logged nothing:
// its counts are no count of breaks or recompiles ("graph breaks 0 distinct" claimed logging had shown none), the
// basis says torch rejected the setting, and the error's place is the program's `import torch` (quick.py:1), not
// the tool's import hook its traceback passes through (probe/sitecustomize.py).
func TestRunWhoseTorchLogsTorchRejected(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "invalid-logs", "runs", "0006-custom")
	code, out, errb := runCLI("report", "--width", "200", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
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

// A run that compiled nothing is no evidence: its wrapper turned torch.compile off (testdata/recorded/compile-off),
// or it ran under set_stance("force_eager") (force-eager; real 2.14.1 both). The gate exits 4, not "PASS · 0 graph
// breaks"; the report's verdict says why nothing compiled, not "steady state".
func TestGateOfARunThatCompiledNothing(t *testing.T) {
	for _, c := range []struct{ dir, why string }{
		{"compile-off", "torch.compile was off (TORCHDYNAMO_DISABLE=1)"},
		{"force-eager", "no frame was compiled (the probe counted none)"},
	} {
		dir := filepath.Join("..", "testdata", "recorded", c.dir, "runs", "0001-breaks")
		code, out, errb := runCLI("check", "--max-graph-breaks", "0", "--max-recompiles", "0", dir)
		if code != exitNoEvidence || strings.Contains(out, "PASS") || !strings.Contains(errb, c.why) {
			t.Errorf("%s: check: exit %d\nstdout %s\nstderr %s", c.dir, code, out, errb)
		}
		_, out, _ = runCLI("report", "--width", "200", dir)
		if strings.Contains(out, "steady state") || !strings.Contains(out, "Verdict: no evidence: "+c.why) {
			t.Errorf("%s: report:\n%s", c.dir, out)
		}
	}
}

// Two ranks died (real 2.14.1, testdata/recorded/dist-crash): rank 1 of its own error, rank 0 of the connection
// rank 1's death closed. The verdict's example, the next step and the first error finding are the first failure
// (torchrun's root cause), not the consequence: they told the user to fix gloo's "Connection closed by peer".
func TestCrashVerdictNamesTheFirstFailure(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "dist-crash", "runs", "0001-breaks")
	_, out, errb := runCLI("report", "--width", "300", dir)
	verdict, next, findings := lineWith(out, "Verdict:"), lineWith(out, "Next step:"), lineWith(out, "  HIGH ")
	for name, l := range map[string]string{"verdict": verdict, "next step": next, "first finding": findings} {
		if !strings.Contains(l, "boom on rank 1") {
			t.Errorf("%s: %q\n%s%s", name, l, out, errb)
		}
	}
	// rank 0 died of rank 1's death, not of its own error (testdata/recorded/peer-abort has more)
	if !strings.Contains(verdict, "1 process died of a runtime error: RuntimeError: boom on rank 1") ||
		!strings.Contains(verdict, "1 process died of its peer's failure") {
		t.Errorf("verdict %q", verdict)
	}
}

// lineWith is the line of s that holds sub, with the lines wrapped under it and the verdict's reasons ("  - "),
// "" when none does.
func lineWith(s, sub string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.Contains(l, sub) {
			out := l
			for _, more := range lines[i+1:] {
				if !strings.HasPrefix(more, "   ") && !strings.HasPrefix(more, "  - ") {
					break
				}
				out += " " + strings.TrimSpace(more)
			}
			return out
		}
	}
	return ""
}

// Ranks of a run that did not complete are not said to agree: rank 1 died and rank 0 was stopped, so what either
// never reached is not known (real 2.14.1, testdata/recorded/dist-crash: "all 2 ranks agree" of a crashed job).
// Nor are ranks that compiled nothing (torch.compile off).
func TestRankAgreementOfAnUnfinishedRun(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "dist-crash", "runs", "0001-breaks")
	_, out, _ := runCLI("report", "--width", "300", dir)
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
	code, out, errb := runCLI("check", "--no-compile-errors", dir)
	if code != exitDidNotComplete || strings.Contains(out, "FAIL") || strings.Contains(errb, "first failure") {
		t.Errorf("check: exit %d\nstdout %s\nstderr %s", code, out, errb)
	}
	_, out, _ = runCLI("report", "--width", "300", dir)
	for _, bad := range []string{"fix the crash", "crashed", "runtime errors 1"} {
		if strings.Contains(out, bad) {
			t.Errorf("report says %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(lineWith(out, "Verdict:"), "stopped by torchtriage (timed out after 8s)") {
		t.Errorf("verdict %q", lineWith(out, "Verdict:"))
	}
}

// The probe counted a graph break the log does not show, TORCH_LOGS having graph_breaks on (the program silenced
// logging; real 2.14.1, testdata/recorded/silenced-logging): the gate cannot pass on the log's "0 graph breaks"
// (exit 4), the verdict is not "steady state", and the finding does not tell to turn on what was on.
func TestProbeCountedBreaksTheLogDoesNotShow(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "silenced-logging", "runs", "0001-breaks")
	code, out, errb := runCLI("check", "--max-graph-breaks", "0", dir)
	if code != exitNoEvidence || strings.Contains(out, "PASS") || !strings.Contains(errb, "the log does not show what the probe counted") {
		t.Errorf("check: exit %d\nstdout %s\nstderr %s", code, out, errb)
	}
	_, out, _ = runCLI("report", "--width", "300", dir)
	if strings.Contains(out, "steady state") || strings.Contains(out, "enable graph_breaks in TORCH_LOGS") ||
		!strings.Contains(out, "silenced") {
		t.Errorf("report:\n%s", out)
	}
}

// A rank's break printed before its process group existed has no rank prefix (real 2.14.1,
// testdata/recorded/unprefixed-rank-break): the log holds it, so the probe's cross-check does not say that rank's
// log output is missing.
func TestProbeCrossCheckWithUnprefixedRecords(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "unprefixed-rank-break", "runs", "0001-breaks")
	_, out, _ := runCLI("report", "--width", "300", dir)
	if strings.Contains(out, "output is missing") || strings.Contains(out, "stderr is captured") {
		t.Errorf("report:\n%s", out)
	}
}

// A fullgraph refusal the program caught without printing it (real 2.14.1, testdata/recorded/caught-silently):
// the probe counted it (Dynamo's counters.unimplemented), the log shows nothing. No pass on --no-compile-errors or
// --max-graph-breaks 0, no "steady state".
func TestCompileFailureOnlyTheProbeCounted(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "caught-silently", "runs", "0003-breaks")
	for _, rule := range [][]string{{"--no-compile-errors"}, {"--max-graph-breaks", "0"}} {
		code, out, errb := runCLI(append(append([]string{"check"}, rule...), dir)...)
		if code == 0 || strings.Contains(out, "PASS") {
			t.Errorf("check %v: exit %d\nstdout %s\nstderr %s", rule, code, out, errb)
		}
	}
	_, out, _ := runCLI("report", "--width", "300", dir)
	if strings.Contains(out, "steady state") || !strings.Contains(out, "counted 1 compile failure") {
		t.Errorf("report:\n%s", out)
	}
}

// A limit hit known only from TORCH_TRACE (real 2.14.1, testdata/recorded/trace-limit) names the limit and its value
// from the refused compile's fail_reason ("recompile_limit (2)", not "config. (0)"), and the refused compile's
// recompile is of f, the frame's function (its compilation_metrics names none), not "?".
func TestTraceOnlyLimitHit(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "trace-limit", "tr_limit")
	_, out, errb := runCLI("report", "--width", "200", dir)
	for _, bad := range []string{"config. (0)", " ?  ", "(0)"} {
		if strings.Contains(out, bad) {
			t.Errorf("report says %q:\n%s%s", bad, out, errb)
		}
	}
	if !strings.Contains(out, "recompile_limit (2)") {
		t.Errorf("report does not name the limit:\n%s", out)
	}
}

// A baseline written from a run records its command; a run of another command gated against it lists nothing
// it had as "improved, gone" (real 2.14.1 runs: the compile-off and force-eager recordings, two programs).
func TestBaselineOfAnotherCommand(t *testing.T) {
	base := filepath.Join(t.TempDir(), "base.json")
	silenced := filepath.Join("..", "testdata", "recorded", "unprefixed-rank-break", "runs", "0001-breaks")
	if code, _, errb := runCLI("check", "--write-baseline", base, silenced); code != 0 && code != exitFail {
		t.Fatalf("write: exit %d %s", code, errb)
	}
	if data, _ := os.ReadFile(base); !strings.Contains(string(data), `"command": "torchrun --nproc-per-node 2 --master-port 29706 preinit.py"`) {
		t.Fatalf("baseline:\n%s", data)
	}
	other := filepath.Join("..", "testdata", "recorded", "dist-crash", "runs", "0001-breaks")
	_, out, _ := runCLI("check", "--format", "json", "--baseline", base, other)
	var res struct {
		Improved []string `json:"improved"`
		Notes    []string `json:"notes"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(res.Improved) != 0 || !strings.Contains(strings.Join(res.Notes, "\n"), "written from another command") {
		t.Errorf("check against another command's baseline: improved %q, notes %q", res.Improved, res.Notes)
	}
}

// A failed compile in TORCH_TRACE followed by another compile of the same process (real 2.14.1,
// testdata/recorded/trace-caught): the process went on, so it did not die of it: a compile error the program
// caught, no "first failure", and check does not call the run incomplete.
func TestTraceCompileFailureTheProcessWentOnAfter(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "trace-caught", "tr_caught2")
	_, out, _ := runCLI("report", "--width", "200", dir)
	if strings.Contains(out, "First failure") || !strings.Contains(out, "caught by the program") {
		t.Errorf("report:\n%s", out)
	}
	if v := lineWith(out, "Verdict:"); strings.Count(v, "caught by the program") != 2 { // the summary's and the reason's, once each
		t.Errorf("verdict %q", v)
	}
	if code, _, errb := runCLI("check", "--max-graph-breaks", "0", dir); code == exitDidNotComplete {
		t.Errorf("check: exit %d, %s", code, errb)
	}
	// the break's playbook (gb-print) describes the split that happens without fullgraph: the finding says the
	// frame did not compile at all, and names the fullgraph playbook beside it
	_, js, _ := runCLI("report", "--format", "json", dir)
	var doc struct {
		Findings []struct {
			Playbook, Detail string
			Related          []string
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil || len(doc.Findings) != 1 {
		t.Fatalf("%v\n%s", err, js)
	}
	if f := doc.Findings[0]; f.Playbook != "gb-print" || !strings.Contains(f.Detail, "did not compile") ||
		len(f.Related) == 0 || f.Related[0] != "err-fullgraph-unsupported" {
		t.Errorf("finding %+v", f)
	}
}

// The program silenced logging while the probe counted a break (real 2.14.1, testdata/recorded/silenced-logging):
// the log's zeros are no count. The report said "graph breaks 0 distinct (0 records) · recompiles 0" beside the
// probe's finding, JSON said graph_breaks_logged, and the checklist ticked "find graph breaks and recompiles" as
// done. Now the counts say the breaks did not reach the log, no step is done on it, and nothing asks to turn on
// TORCH_LOGS that was on.
func TestSilencedLogIsNoCount(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "silenced-logging", "runs", "0001-breaks")
	_, out, _ := runCLI("report", "--width", "300", dir)
	for _, bad := range []string{"graph breaks 0", "recompiles 0", "not logged", "--preset breaks"} {
		if strings.Contains(out, bad) {
			t.Errorf("report says %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"graph breaks not in the log", "recompiles not in the log"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	_, js, _ := runCLI("report", "--format", "json", dir)
	var rep struct {
		Evidence struct {
			GraphBreaksLogged bool   `json:"graph_breaks_logged"`
			RecompilesLogged  bool   `json:"recompiles_logged"`
			LogSilenced       string `json:"log_silenced"`
		} `json:"evidence"`
		NextStep struct {
			Done []string `json:"done"`
		} `json:"next_step"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	ev := rep.Evidence
	if ev.GraphBreaksLogged || ev.RecompilesLogged || ev.LogSilenced == "" || len(rep.NextStep.Done) > 0 {
		t.Errorf("evidence %+v, steps done %v", ev, rep.NextStep.Done)
	}
	// against a log with a limit hit: the hit is not "gone", and nothing blames TORCH_LOGS
	other := filepath.Join("..", "testdata", "fixtures", "torch-2.14", "gb_recompile.triage.log")
	_, out, _ = runCLI("diff", "--width", "300", other, dir)
	if strings.Contains(out, "Gone") || strings.Contains(out, "TORCH_LOGS") || !strings.Contains(out, "lacks in its log what its probe counted") {
		t.Errorf("diff:\n%s", out)
	}
	// the bringup log counts nothing of it either
	_, out, _ = runCLI("log", "--width", "300", "--store", filepath.Dir(dir))
	if strings.Contains(out, "not logged") || strings.Contains(out, "0 limit hits") || !strings.Contains(out, "log silenced") {
		t.Errorf("log:\n%s", out)
	}
}

// The first recompile on a new int value of a frame's argument is automatic dynamic, as for a tensor's size: torch
// made n a SymInt and compiled no more for n = 2…5 (real 2.14.1 and 2.6, testdata/recorded/int-recompiles). It read
// "MEDIUM fix" with the advice to pass the int as a tensor. A global int (G['K']) is a constant each time, and
// 2.14.1 specialises a module attribute on every value: those stay work.
func TestFirstIntRecompileOfAnArgumentIsAutomaticDynamic(t *testing.T) {
	for _, run := range []string{"0001-breaks", "0002-breaks"} {
		dir := filepath.Join("..", "testdata", "recorded", "int-recompiles", "runs", run)
		_, js, _ := runCLI("report", "--format", "json", dir)
		var rep struct {
			Findings []struct {
				ID       string `json:"id"`
				Category string `json:"category"`
				Expected bool   `json:"expected"`
				Title    string `json:"title"`
			} `json:"findings"`
			Verdict struct {
				Summary string `json:"summary"`
			} `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(js), &rep); err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, f := range rep.Findings {
			switch {
			case strings.HasSuffix(f.ID, ":value_int:n"):
				seen++
				if !f.Expected || f.Category == "fix" || !strings.Contains(f.Title, "automatic dynamic") {
					t.Errorf("%s: argument n: %+v", run, f)
				}
			case strings.HasSuffix(f.ID, ":value_int:K"):
				seen++
				if f.Expected {
					t.Errorf("%s: global K: %+v", run, f)
				}
			}
		}
		if seen != 2 {
			t.Errorf("%s: findings %+v", run, rep.Findings)
		}
		if run == "0001-breaks" && !strings.Contains(rep.Verdict.Summary, "6 recompiles beyond automatic dynamic") {
			t.Errorf("%s: verdict %q", run, rep.Verdict.Summary)
		}
	}
}

// Rank 1's program silenced logging, so only rank 0's break printed while both probes counted it (real 2.14.1,
// testdata/recorded/silenced-rank): the ranks are not compared (not "rank 0 differs from rank 1"), --ranks-agree
// has no evidence (exit 4), and the gate's counted line says what is missing, not "graph_breaks not logged"
// (it was on) nor "0 limit hits".
func TestSilencedRankIsNotCompared(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "silenced-rank", "runs", "0001-breaks")
	_, out, _ := runCLI("report", "--width", "300", dir)
	if l := lineWith(out, "Rank agreement:"); !strings.Contains(l, "not compared: the log lacks what the probe counted (rank 1 counted 1 graph break") {
		t.Errorf("rank agreement %q", l)
	}
	if code, out, errb := runCLI("check", "--ranks-agree", dir); code != exitNoEvidence {
		t.Errorf("check --ranks-agree: exit %d\n%s%s", code, out, errb)
	}
	code, out, _ := runCLI("check", "--max-graph-breaks", "0", "--ranks-agree", dir)
	if code != 1 || strings.Contains(out, "not logged") || strings.Contains(out, "0 limit hits") || !strings.Contains(out, "at least 1 graph break (not all in the log)") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
}

// torchrun died at rendezvous with "RendezvousConnectionError: … See inner exception for details.", raised from
// "DistStoreError: use_libuv was requested but PyTorch was built without libuv support, run with USE_LIBUV=0 …"
// (real 2.14.1, testdata/recorded/rendezvous-libuv). The first failure and the finding name that cause, not only
// the outer error, and do not guess a port in use.
func TestChainedCauseOfALauncherFailure(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "rendezvous-libuv", "runs", "0001-breaks")
	_, out, _ := runCLI("report", "--width", "400", dir)
	if l := lineWith(out, "First failure:"); !strings.Contains(l, "caused by DistStoreError: use_libuv was requested") {
		t.Errorf("first failure %q", l)
	}
	if strings.Contains(out, "port error") {
		t.Errorf("report guesses a port in use:\n%s", out)
	}
	_, js, _ := runCLI("report", "--format", "json", dir)
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

// Dynamo's counters.unimplemented holds a recompile-limit hit (runs 0022, 0027: the log shows the hit) and, on
// 2.14.1, a data-dependent branch, which is a graph break (0036, under the guards preset that leaves graph_breaks
// out): neither is a compile failure the program caught without a word (real runs, testdata/recorded/
// probe-unimplemented). The gate exited 4 on them; now the limit-hit runs are gated, and the guards run's breaks
// are said to be unlogged, not hidden by the program.
func TestUnimplementedThatIsNoHiddenFailure(t *testing.T) {
	base := filepath.Join("..", "testdata", "recorded", "probe-unimplemented", "runs")
	for _, run := range []string{"0022-breaks", "0027-breaks"} {
		code, out, errb := runCLI("check", "--max-graph-breaks", "0", "--no-compile-errors", filepath.Join(base, run))
		if code != 0 || !strings.Contains(out, "PASS") {
			t.Errorf("%s: exit %d\n%s%s", run, code, out, errb)
		}
		_, out, _ = runCLI("report", "--width", "300", filepath.Join(base, run))
		if strings.Contains(out, "caught it without printing it") || !strings.Contains(out, "limit") {
			t.Errorf("%s: report:\n%s", run, out)
		}
	}
	_, out, _ := runCLI("report", "--width", "300", filepath.Join(base, "0036-guards"))
	if strings.Contains(out, "caught it without printing it") || !strings.Contains(out, "graph_breaks was not logged") ||
		!strings.Contains(out, "counted 1 graph break (2 events) and 1 more Dynamo could not trace") {
		t.Errorf("0036: report:\n%s", out)
	}
}

// A recompile is automatic dynamic's expected first only where automatic dynamic was on: the probe recorded
// automatic_dynamic_shapes false (testdata/recorded/automatic-dynamic-off, real 2.14.1; on rank 1 only in the
// 2-rank run), and the log shows the graph compiled at an int's first recompile guarding the next value (k == 1:
// testdata/recorded/probe-unimplemented 0022, dynamic=False). --max-recompiles 0 passed on "1 expected".
func TestRecompileExpectedOnlyUnderAutomaticDynamic(t *testing.T) {
	off := filepath.Join("..", "testdata", "recorded", "automatic-dynamic-off", "runs")
	code, out, _ := runCLI("check", "--max-recompiles", "0", filepath.Join(off, "0025-breaks"))
	if code != 1 || strings.Contains(out, "expected") {
		t.Errorf("0025: exit %d\n%s", code, out)
	}
	_, out, _ = runCLI("report", "--width", "300", filepath.Join(off, "0029-breaks"))
	if strings.Contains(out, "expected once · ranks 0,1") || !strings.Contains(out, "1 recompile beyond automatic dynamic") {
		t.Errorf("0029: report:\n%s", out)
	}
	_, out, _ = runCLI("report", "--width", "300", filepath.Join("..", "testdata", "recorded", "probe-unimplemented", "runs", "0022-breaks"))
	if !strings.Contains(out, "f recompiles 2×: new int values of k") {
		t.Errorf("0022: report:\n%s", out)
	}
}

// Rank 1 turned automatic dynamic off (testdata/recorded/automatic-dynamic-off 0029, real 2.14.1): both ranks
// logged the same recompile, but their settings differ, which fails --ranks-agree. The report said "all 2 ranks
// agree (0,1)" (text, markdown, JSON) and the checklist could tick the ranks step; now the agreement names the
// settings and the step needs work.
func TestRanksThatLoggedTheSameWithDifferentSettings(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "automatic-dynamic-off", "runs", "0029-breaks")
	_, out, _ := runCLI("report", "--width", "300", dir)
	if l := lineWith(out, "Rank agreement:"); !strings.Contains(l, "settings differ: dynamo.automatic_dynamic_shapes") {
		t.Errorf("rank agreement %q", l)
	}
	_, js, _ := runCLI("report", "--format", "json", dir)
	if !strings.Contains(js, `"settings_differ": [`) {
		t.Errorf("json rank agreement lacks settings_differ")
	}
	if code, out, _ := runCLI("check", "--ranks-agree", dir); code != 1 {
		t.Errorf("check --ranks-agree: exit %d\n%s", code, out)
	}
}

// A backend failure the program caught and printed itself, with no traceback (real 2.14.1,
// testdata/recorded/caught-printed): the probe counted a frame that did not compile (frames total 1, ok 0) and the
// log shows no compile error for it. The gate passed with "0 compile errors" and the verdict was "steady state".
func TestFrameThatFailedToCompileOnlyTheProbeSaw(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "caught-printed", "runs", "0028-breaks")
	if code, out, errb := runCLI("check", "--no-compile-errors", "--max-graph-breaks", "0", dir); code == 0 || strings.Contains(out, "PASS") {
		t.Errorf("check: exit %d\n%s%s", code, out, errb)
	}
	_, out, _ := runCLI("report", "--width", "300", dir)
	if strings.Contains(out, "steady state") || !strings.Contains(out, "1 frame that did not compile") {
		t.Errorf("report:\n%s", out)
	}
	// a frame that did not compile is the breaks step's work (as a fullgraph refusal is), not "done"; the next
	// step goes to it, not to the eager baseline
	_, js, _ := runCLI("report", "--format", "json", dir)
	var d struct {
		NextStep struct {
			ID   string   `json:"id"`
			Done []string `json:"done"`
		} `json:"next_step"`
	}
	if err := json.Unmarshal([]byte(js), &d); err != nil || d.NextStep.ID != "breaks" || slices.Contains(d.NextStep.Done, "breaks") {
		t.Errorf("next step %+v (%v)", d.NextStep, err)
	}
	// the log shows the caught exception (without its traceback): the finding names it, not "no compile error …
	// or its output was not captured" beside the report's own "Caught ×1 RuntimeError: backend exploded"
	if f := lineWith(out, "frame that did not compile"); !strings.Contains(f, "RuntimeError: backend exploded") || strings.Contains(f, "output was not captured") {
		t.Errorf("finding %q", f)
	}
	// torchtriage captured the whole output of this run: an exception printed without a traceback is what the
	// program printed, not a cut input ("partial input: the text looks cut")
	if strings.Contains(out, "partial input") || strings.Contains(out, "looks cut") {
		t.Errorf("a captured run called cut:\n%s", out)
	}
}

// Rules that had nothing to rest on passed: --no-limit-hits and --no-compile-errors of a run that compiled
// nothing (testdata/recorded/compile-off), --max-compile-skew of one process, and --baseline whose per-frame
// compile times the run (the probe's total only) could not be compared with (testdata/recorded/baseline-compile).
// Each is no evidence now (exit 4), as --max-graph-breaks and --ranks-agree were.
func TestRulesWithNothingToRestOn(t *testing.T) {
	off := filepath.Join("..", "testdata", "recorded", "compile-off", "runs", "0001-breaks")
	for _, rule := range []string{"--no-limit-hits", "--no-compile-errors"} {
		if code, out, errb := runCLI("check", rule, off); code != exitNoEvidence {
			t.Errorf("%s of a run that compiled nothing: exit %d\n%s%s", rule, code, out, errb)
		}
	}
	one := filepath.Join("..", "testdata", "recorded", "int-recompiles", "runs", "0001-breaks")
	if code, out, errb := runCLI("check", "--max-compile-skew", "1s", one); code != exitNoEvidence || !strings.Contains(errb, "fewer than two ranks") {
		t.Errorf("--max-compile-skew of one process: exit %d\n%s%s", code, out, errb)
	}
	runs := filepath.Join("..", "testdata", "recorded", "baseline-compile", "runs")
	base := filepath.Join(t.TempDir(), "base.json")
	if code, out, errb := runCLI("check", "--write-baseline", base, filepath.Join(runs, "0020-trace")); code != 0 {
		t.Fatalf("--write-baseline: exit %d\n%s%s", code, out, errb)
	}
	if code, out, errb := runCLI("check", "--baseline", base, filepath.Join(runs, "0008-breaks")); code != exitNoEvidence || !strings.Contains(errb, "per frame") {
		t.Errorf("--baseline without per-frame compile times: exit %d\n%s%s", code, out, errb)
	}
}

// JUnit of a gate with no evidence (a run that compiled nothing, testdata/recorded/compile-off) or of a run that did
// not complete (testdata/recorded/dist-crash): a rule that was not evaluated is a skipped case, not an empty
// (passed, in CI's eyes) one.
func TestJUnitRulesNotEvaluatedAreSkipped(t *testing.T) {
	for _, c := range []struct{ dir, why string }{
		{filepath.Join("compile-off", "runs", "0001-breaks"), "no evidence"},
		{filepath.Join("dist-crash", "runs", "0001-breaks"), "did not complete"},
	} {
		_, out, _ := runCLI("check", "--max-recompiles", "100", "--format", "junit", filepath.Join("..", "testdata", "recorded", c.dir))
		i := strings.Index(out, `<testcase name="--max-recompiles=100"`)
		if i < 0 {
			t.Fatalf("%s: no rule case:\n%s", c.dir, out)
		}
		rest := out[i:]
		rest = rest[:strings.Index(rest, "</testcase>")+1]
		if !strings.Contains(rest, "<skipped") || !strings.Contains(rest, c.why) {
			t.Errorf("%s: rule case %s\n%s", c.dir, rest, out)
		}
	}
}

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

// One run named twice is not "2 runs" (it read ".torchtriage/runs/0001-breaks, .torchtriage/runs/0001-breaks are
// 2 runs").
func TestOneRunNamedTwice(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "quiet-rank", "runs", "0013-breaks")
	code, _, errb := runCLI("check", "--max-graph-breaks", "0", dir, dir)
	if code != exitUsage || strings.Contains(errb, "2 runs") || !strings.Contains(errb, "named 2 times") {
		t.Errorf("exit %d: %s", code, errb)
	}
}

// A dotted TORCH_LOGS name that is no module (--logs foo.bar, real 2.14.1, testdata/recorded/invalid-logs 0001):
// import torch dies of ModuleNotFoundError inside torch's reading of TORCH_LOGS. That is the TORCH_LOGS rejected,
// as for an unknown name: no break count, and the basis says so.
func TestDottedTorchLogsNameOfNoModule(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "invalid-logs", "runs", "0001-custom")
	_, out, _ := runCLI("report", "--width", "300", dir)
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
