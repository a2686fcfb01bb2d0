package triage

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// One record is "1 record", in the text counts line and the Markdown table alike (they read "(1 records)"). The
// process died of its compile error: its counts are floors (floorIfUnfinished).
func TestCountsSayOneRecord(t *testing.T) {
	a := Analyze(loadReport(t, fx("failures/torch-2.6.inductor-cpp-compile-error-missing-headers.log")), nil, nil)
	if a.Report.Counts.GraphBreakRecords != 1 || !a.Evidence.GraphBreaksLogged {
		t.Fatalf("the fixture has %d break records (logged: %v), the test wants 1, logged", a.Report.Counts.GraphBreakRecords, a.Evidence.GraphBreaksLogged)
	}
	if got := a.BreaksText(); got != "graph breaks ≥1 distinct (≥1 record)" {
		t.Errorf("text: %q", got)
	}
	var md strings.Builder
	WriteMarkdown(&md, a)
	if !strings.Contains(md.String(), "| ≥1 distinct (≥1 record) |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	a = Analyze(loadReport(t, fx("torch-2.14/gb_recompile.triage.log")), nil, nil)
	if got := a.BreaksText(); got != "graph breaks 3 distinct (7 records)" {
		t.Errorf("text: %q", got)
	}
}

// The gate's summary line and the per-rank counts say "1 limit hit", "1 recompile" (they read "1 limit hits").
func TestGateAndRankCountsSayOne(t *testing.T) {
	a := Analyze(loadReport(t, fx("torch-2.14/gb_recompile.triage.log")), nil, nil)
	s := gateSummary(Gate(a, GateOptions{MaxGraphBreaks: -1, MaxRecompiles: -1, NoLimitHits: true}))
	if !strings.Contains(s, ", 1 limit hit, 0 compile errors, 0 runtime errors") {
		t.Errorf("gate: %s", s)
	}
	r05 := Analyze(loadReport(t, fx("torch-2.6/r05_dist_c10d.triage.log")), nil, nil)
	if res := Gate(r05, GateOptions{MaxGraphBreaks: 0, MaxRecompiles: -1}); len(res.Failures) == 0 || !strings.HasPrefix(res.Failures[0].Message, "1 graph break > 0: ") {
		t.Errorf("gate failure: %+v", res.Failures)
	}
	if got := countsText(Counts{GraphBreaks: 1, Recompiles: 1, CudagraphSkips: 1, RecompileLimitHits: 2}, nil); got != "1 break, 1 recompile, 2 limit hits, 1 skip, 0 compile errors, 0 runtime errors" {
		t.Errorf("per rank: %s", got)
	}
}

// A count of breaks seen while graph_breaks was off is a floor, not the count: without TORCH_LOGS only the
// Tensor.item() warning prints (gb_recompile has 3 distinct breaks; 1 printed). Every rendering says "at least"
// and why; a logged count and a kind not logged at all read as before.
func TestPartialBreakCountSaysAtLeast(t *testing.T) {
	a := Analyze(loadReport(t, fx("torch-2.14/gb_recompile.no_torch_logs.log")), nil, nil)
	if got := a.BreaksText(); got != "graph breaks at least 1 distinct (1 record; graph_breaks not logged)" {
		t.Errorf("text: %q", got)
	}
	if got := a.RecompilesText(); got != "recompiles unknown (no sign recompiles was on)" { // logs alone
		t.Errorf("recompiles: %q", got)
	}
	var md strings.Builder
	WriteMarkdown(&md, a)
	if !strings.Contains(md.String(), "| at least 1 distinct (1 record; graph_breaks not logged) | unknown (no sign recompiles was on) |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	s := gateSummary(Gate(a, GateOptions{MaxGraphBreaks: -1, MaxRecompiles: -1, NoLimitHits: true}))
	if !strings.Contains(s, "counted: at least 1 graph break (graph_breaks not logged), recompiles unknown, 1 limit hit") {
		t.Errorf("gate: %s", s)
	}
	if got := countsText(a.Report.Counts, a); !strings.HasPrefix(got, "at least 1 break, recompiles unknown, 1 limit hit") {
		t.Errorf("per rank: %s", got)
	}
	for _, c := range []struct {
		n      int
		logged Logging
		want   string
	}{{3, LoggingOn, "3 breaks"}, {0, LoggingOn, "0 breaks"}, {1, LoggingOn, "1 break"}, {0, LoggingOff, "breaks not logged"},
		{0, LoggingUnknown, "breaks unknown"}, {2, LoggingOff, "at least 2 breaks"}, {2, LoggingUnknown, "at least 2 breaks"}} {
		if got := Tally(c.n, c.logged, "break"); got != c.want {
			t.Errorf("Tally(%d, %v) = %q, want %q", c.n, c.logged, got, c.want)
		}
	}
}

// One process, or one rank, agrees with nothing: the agreement is "not compared" (JSON agree false, not_compared
// says why), never agree true, and it is no disagreement either.
func TestOneProcessIsNotAgreement(t *testing.T) {
	for _, ranks := range [][]int{nil, {3}} {
		ra := RankAgree(ranks, nil)
		if ra.Agree || ra.Disagree() || ra.NotCompared == "" {
			t.Errorf("ranks %v: %+v", ranks, ra)
		}
	}
	a := Analyze(loadReport(t, fx("torch-2.14/gb_recompile.triage.log")), nil, nil)
	if a.RankAgreement.Agree || a.RankAgreement.Summary != "single process" {
		t.Errorf("single-process log: %+v", a.RankAgreement)
	}
}

// A torchrun job whose ranks printed nothing rank-tagged (the funcol fix: no break, no recompile) shows no rank
// prefix; torchrun's own launcher lines show it was a job of several processes, not "single process".
func TestTorchrunJobWithoutRankPrefixIsNoSingleProcess(t *testing.T) {
	a := Analyze(loadReport(t, fx("torch-2.14/r06_dist_funcol.triage.log")), nil, nil)
	if !a.Evidence.Torchrun || a.Evidence.ProcessesText() != "torchrun job, no rank prefix" {
		t.Errorf("evidence %+v: %q", a.Evidence, a.Evidence.ProcessesText())
	}
	var b strings.Builder
	WriteReportText(&b, a, TextOptions{Width: 200})
	WriteFindingsText(&b, a, TextOptions{Width: 200})
	if !strings.Contains(b.String(), "· torchrun job, no rank prefix\n") || strings.Contains(b.String(), "single process") ||
		!strings.Contains(b.String(), "Rank agreement: not compared: a torchrun job whose lines carry no rank prefix") {
		t.Errorf("report:\n%s", b.String())
	}
	if ra := a.RankAgreement; ra.Agree || ra.Disagree() || ra.NotCompared == "" {
		t.Errorf("agreement %+v", ra)
	}
	one := Analyze(loadReport(t, fx("torch-2.14/gb_recompile.triage.log")), nil, nil)
	if one.Evidence.Torchrun || one.Evidence.ProcessesText() != "single process" {
		t.Errorf("a single python process: %+v %q", one.Evidence, one.Evidence.ProcessesText())
	}
	ddp := Analyze(loadReport(t, fx("torch-2.14/ddp_2ranks.ddp.log")), nil, nil)
	if ddp.Evidence.ProcessesText() != "ranks 0,1" { // its launcher printed nothing: the prefixes say it
		t.Errorf("a torchrun job with rank prefixes: %+v %q", ddp.Evidence, ddp.Evidence.ProcessesText())
	}
}

// In a torchrun job an item without ranks came from the launcher or from lines without a rank prefix, not from a
// "single process" (the port-in-use failure is torchrun's own).
func TestTorchrunItemWithoutRanks(t *testing.T) {
	a := Analyze(loadReport(t, fx("failures/torch-2.6.torchrun-port-in-use.log")), nil, nil)
	var b strings.Builder
	WriteReportText(&b, a, TextOptions{Width: 200})
	if !strings.Contains(b.String(), "Runtime error ×1 no rank prefix torch.distributed.DistNetworkError") || strings.Contains(b.String(), "single process") {
		t.Errorf("report:\n%s", b.String())
	}
	b.Reset()
	WriteReportText(&b, Analyze(loadReport(t, fx("torch-2.14/gb_recompile.triage.log")), nil, nil), TextOptions{Width: 200})
	if !strings.Contains(b.String(), "×4 single process") {
		t.Errorf("a single process's items:\n%s", b.String())
	}
}

// Ranks of an input without torch output were not compared because nothing of torch printed, not because
// TORCH_LOGS was off ("rerun with --preset breaks" sent the user the wrong way), and their per-rank zeros are
// no counts: each rank's line says so in the counts line's words (Uncounted).
func TestRanksWithoutTorchOutput(t *testing.T) {
	log := filepath.Join(t.TempDir(), "plain.log")
	os.WriteFile(log, []byte("[rank0]:hello\n[rank1]:hello\n[rank0]:epoch 1\n"), 0o644)
	a := Analyze(loadReport(t, log), nil, nil)
	if ra := a.RankAgreement; ra.Agree || ra.Disagree() || ra.NotCompared != "no torch output" || strings.Contains(ra.Summary, "TORCH_LOGS") {
		t.Errorf("agreement %+v", ra)
	}
	var b strings.Builder
	WriteReportText(&b, a, TextOptions{Width: 200})
	if !strings.Contains(b.String(), "ranks 0,1: no torch output: nothing counted") || strings.Contains(b.String(), "0 limit hits") {
		t.Errorf("report:\n%s", b.String())
	}
}

// Logs alone do not say what TORCH_LOGS was: r06 (the funcol fix) ran with graph_breaks,recompiles and printed
// none, yet its verdict and the gate said "TORCH_LOGS did not ask for them". They say what the log shows: no such
// record, and no line tagged with their names.
func TestLogsAloneDoNotClaimTorchLogs(t *testing.T) {
	a := Analyze(loadReport(t, fx("torch-2.14/r06_dist_funcol.triage.log")), nil, nil)
	if s := a.Verdict.Summary; strings.Contains(s, "TORCH_LOGS did not ask") || !strings.Contains(s, "no such records, and no line tagged graph_breaks or recompiles") {
		t.Errorf("verdict: %q", s)
	}
	if why := MissingEvidence(a, GateOptions{MaxGraphBreaks: 0, MaxRecompiles: -1}); strings.Contains(why, "TORCH_LOGS did not ask") ||
		!strings.Contains(why, "no graph_breaks records and no line tagged graph_breaks") {
		t.Errorf("gate: %q", why)
	}
}

// A baseline's item is "improved, gone" only where the run could have shown it: against a log whose graph
// breaks were not logged, the baseline's breaks are not gone (they read "improved, gone" all the same); a note
// says they were not compared.
func TestBaselineGoneOnlyWhereLogged(t *testing.T) {
	base := NewBaseline(Analyze(loadReport(t, fx("torch-2.14/gb_recompile.triage.log")), nil, nil))
	res := Gate(Analyze(loadReport(t, fx("torch-2.14/r12_limit_str.triage.log")), nil, nil), GateOptions{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: base})
	for _, s := range res.Improved {
		if strings.HasPrefix(s, "graph break ") {
			t.Errorf("improved, gone: %s (graph breaks were not logged)", s)
		}
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "graph breaks of the baseline not compared: the input shows no sign they were logged") {
		t.Errorf("notes %q", res.Notes)
	}
	// recompiles were logged: the baseline's are gone for real
	if !strings.Contains(strings.Join(res.Improved, "\n"), "recompile reason f: size") {
		t.Errorf("improved %q", res.Improved)
	}
}

// The findings' detail says of a torchrun job's rank-less item what the report's item line says: no rank
// prefix, not "single process" (the TUI's detail and the JSON finding read "single process").
func TestTorchrunFindingDetailWithoutRanks(t *testing.T) {
	data, err := os.ReadFile(fx("torch-2.14/r06_dist_funcol.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	brk, err := os.ReadFile(fx("torch-2.14/gb_recompile.triage.log")) // its records carry no rank prefix
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "job.log")
	os.WriteFile(log, append(data, brk...), 0o644)
	a := Analyze(loadReport(t, log), nil, nil)
	n := 0
	for _, f := range a.Findings {
		if f.Kind != KindGraphBreak && f.Kind != KindRecompile {
			continue
		}
		n++
		if strings.Contains(f.Detail, "single process") || !strings.Contains(f.Detail, "no rank prefix") {
			t.Errorf("%s detail:\n%s", f.ID, f.Detail)
		}
	}
	if n == 0 || !a.Evidence.Torchrun {
		t.Fatalf("%d findings, torchrun %v", n, a.Evidence.Torchrun)
	}
}

// A log that ends inside a torch log line was cut (a copy of a log still being written, a truncated file): torch's
// logging ends every line. The report says it is partial; a log whose last line is the program's own output
// without a newline is not.
func TestLogCutInsideATorchLine(t *testing.T) {
	data, err := os.ReadFile(fx("torch-2.14/gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	for name, cut := range map[string][]byte{
		"mid-prefix.log":  data[:2500], // "V1121 07:47:33.827000 1933 torch/_dynamo/symbolic_convert"
		"mid-message.log": data[:bytesIndexAfter(t, data, "Graph Break Reason: Encountered", 2)],
		"ranked.log":      []byte("[rank0]:" + strings.ReplaceAll(string(data[:2500]), "\n", "\n[rank0]:")),
	} {
		a := Analyze(loadReport(t, write(name, cut)), nil, nil)
		if !a.Evidence.Partial || !strings.Contains(strings.Join(a.Evidence.PartialReasons, "\n"), "its last torch log line stops mid-line") {
			t.Errorf("%s: partial %v %q", name, a.Evidence.Partial, a.Evidence.PartialReasons)
		}
	}
	for name, whole := range map[string][]byte{
		"whole.log":      data,
		"print-last.log": append(append([]byte{}, data...), "loss 0.5"...), // the program's print(end="")
	} {
		if a := Analyze(loadReport(t, write(name, whole)), nil, nil); a.Evidence.Partial {
			t.Errorf("%s: partial %q", name, a.Evidence.PartialReasons)
		}
	}
}

// bytesIndexAfter is the index n bytes past the first s in data.
func bytesIndexAfter(t *testing.T, data []byte, s string, n int) int {
	t.Helper()
	i := strings.Index(string(data), s)
	if i < 0 {
		t.Fatalf("no %q", s)
	}
	return i + len(s) + n
}

// The launcher's process count names ranks only when torch ran: a torchrun that failed before starting its ranks
// (python -m torch.distributed.run without torch) read "ranks 0,1" and "the 2 ranks (0,1) could not be compared".
func TestLauncherRanksNeedTorchOutput(t *testing.T) {
	code := 1
	empty := filepath.Join(t.TempDir(), "stderr.log")
	os.WriteFile(empty, []byte("/usr/bin/python3: Error while finding module specification for 'torch.distributed.run'\n"), 0o644)
	a := AnalyzeRun(loadReport(t, empty), nil, nil, &RunFacts{Outcome: OutcomeFailed, ExitCode: &code, WorldSize: 2,
		TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true})
	if len(a.Evidence.Ranks) != 0 || strings.Contains(a.RankAgreement.Summary, "2 ranks") {
		t.Errorf("ranks %v, agreement %q", a.Evidence.Ranks, a.RankAgreement.Summary)
	}
	// torch ran (r06: torchrun's launcher lines, no rank prefix): the launcher's count says which ranks there were
	a = AnalyzeRun(loadReport(t, fx("torch-2.14/r06_dist_funcol.triage.log")), nil, nil, &RunFacts{Outcome: OutcomeCompleted,
		WorldSize: 2, TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true})
	if len(a.Evidence.Ranks) != 2 {
		t.Errorf("a clean 2-rank job: ranks %v", a.Evidence.Ranks)
	}
}

// An input without torch output shows no process at all: its header does not say "single process", nor its rank
// agreement (an empty log read both).
func TestNoTorchOutputIsNoSingleProcess(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.log")
	os.WriteFile(empty, nil, 0o644)
	a := Analyze(loadReport(t, empty), nil, nil)
	if got := a.Evidence.ProcessesText(); got != "no torch process seen" {
		t.Errorf("processes %q", got)
	}
	if ra := a.RankAgreement; ra.Summary != "not compared: no torch output" || ra.NotCompared != "no torch output" {
		t.Errorf("agreement %+v", ra)
	}
}

// A break whose function the input does not show (its user traceback was not pasted) is not placed "in module
// code": that is a guess; the title says where it is, and no more.
func TestBreakTitleWithoutItsFunction(t *testing.T) {
	data, err := os.ReadFile(fx("torch-2.14/gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	paste := filepath.Join(t.TempDir(), "paste.txt")
	os.WriteFile(paste, []byte(strings.Join(strings.SplitAfter(string(data), "\n")[:12], "")), 0o644)
	a := Analyze(loadReport(t, paste), nil, nil)
	for _, f := range a.Findings {
		if f.Kind == KindGraphBreak && (strings.Contains(f.Title, "module code") || !strings.HasPrefix(f.Title, "print() breaks the graph at gb_recompile.py:12")) {
			t.Errorf("title %q (function %q)", f.Title, f.Function)
		}
	}
}

// Counts are worded for their number ("1 input", "2 inputs"), never "input(s)": the report's header, the GPU
// findings' details and the comparison's headline use Plural as the counts line does.
func TestNoMaybePlurals(t *testing.T) {
	for _, name := range []string{"torch-2.14/gb_recompile.triage.log", "torch-2.11-cuda/g01_cg_cpu_input.perf.log",
		"torch-2.11-cuda/g13b_cg_rerecord_limit_noinline.perf.log", "torch-2.11-cuda/g03_cg_dynamic.perf.log"} {
		a := Analyze(loadReport(t, fx(name)), nil, nil)
		var text, md strings.Builder
		WriteReportText(&text, a, TextOptions{Width: 200})
		WriteMarkdown(&md, a)
		for _, f := range a.Findings {
			text.WriteString(f.Title + "\n" + f.Detail + "\n")
		}
		for what, s := range map[string]string{"text": text.String(), "markdown": md.String()} {
			if strings.Contains(s, "(s)") {
				t.Errorf("%s of %s says (s):\n%s", what, name, s)
			}
		}
		if !strings.Contains(text.String(), "· 1 input ·") {
			t.Errorf("the header of %s does not say 1 input:\n%s", name, text.String())
		}
	}
	res := &CompareResult{FindingsNew: []string{"a", "b"}, FindingsGone: []string{"c"}}
	if got, _ := res.verdict(); got != "2 new findings; 1 finding gone" {
		t.Errorf("compare: %q", got)
	}
	res = &CompareResult{Settings: []Change{{Key: "TORCHINDUCTOR_X"}}}
	if got, _ := res.verdict(); got != "no difference in compile time, caches or findings (1 other setting differs)" {
		t.Errorf("compare: %q", got)
	}
}

// A count no record supports is "not logged" only where the run's TORCH_LOGS is known to leave its name out; for
// logs alone nothing says which names were on (r07's triage log had graph_breaks,recompiles on and printed no
// recompile: it read "recompiles not logged"), so the count is "unknown" and says why, in every rendering.
func TestUnloggedCountOfLogsAloneIsUnknown(t *testing.T) {
	r07 := fx("torch-2.14/r07_fullgraph.triage.log")
	a := Analyze(loadReport(t, r07), nil, nil)
	if a.Evidence.LogsFrom == "run" || a.RecompilesCounted() {
		t.Fatalf("the test wants logs alone with no recompile record: %+v", a.Evidence)
	}
	const want = "recompiles unknown (no sign recompiles was on)"
	if got := a.RecompilesText(); got != want {
		t.Errorf("text: %q", got)
	}
	var md strings.Builder
	WriteMarkdown(&md, a)
	if !strings.Contains(md.String(), " | unknown (no sign recompiles was on) | ") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if got := countsText(a.Report.Counts, a); !strings.Contains(got, ", recompiles unknown, ") {
		t.Errorf("per rank: %s", got)
	}
	if s := gateSummary(Gate(a, GateOptions{MaxGraphBreaks: -1, MaxRecompiles: -1})); !strings.Contains(s, "recompiles unknown") {
		t.Errorf("gate: %s", s)
	}
	if got := a.UncountedWhy(KindRecompile); got != "no sign recompiles were logged (TORCH_LOGS)" {
		t.Errorf("why: %q", got)
	}
	// the run's TORCH_LOGS is known: its name was off, and the count is "not logged"
	a = AnalyzeRun(loadReport(t, r07), nil, nil, &RunFacts{Outcome: OutcomeCompleted, TorchLogs: "graph_breaks", TorchLogsSet: true})
	if got := a.RecompilesText(); got != "recompiles not logged" {
		t.Errorf("run text: %q", got)
	}
	md.Reset()
	WriteMarkdown(&md, a)
	if !strings.Contains(md.String(), " | not logged | ") {
		t.Errorf("run markdown:\n%s", md.String())
	}
	if got := a.UncountedWhy(KindRecompile); got != "recompiles were not logged (TORCH_LOGS)" {
		t.Errorf("run why: %q", got)
	}
	if got := a.UncountedWhy(KindGraphBreak); got != "" {
		t.Errorf("breaks were logged: %q", got)
	}
}

// A steady verdict names what it set aside, and only that: r11's transformer read "(0 graph breaks by design,
// 1 expected recompile)".
func TestSteadyVerdictNamesOnlyWhatWasSetAside(t *testing.T) {
	a := Analyze(loadReport(t, fx("torch-2.14/r11_transformer.dynamo_debug.log")), nil, nil)
	if s := a.Verdict.Summary; !strings.HasPrefix(s, "steady state: no unexpected graph break or recompile (1 expected recompile);") {
		t.Errorf("verdict %q", s)
	}
}

// Dynamo's own exception text printed by the program that caught it (fullgraph_err prints str(e): the
// "from user code:" frame, Dynamo's "Set TORCHDYNAMO_VERBOSE=1 …" / "You can suppress this exception …" epilogue)
// is torch output: the report read "the input holds no torch output at all". Nothing more is made of it (the
// program caught it: no compile error, as expected.json counts), so the verdict is the no-evidence of a run
// whose graph breaks and recompiles were not shown to be logged.
func TestCaughtDynamoMessageIsTorchOutput(t *testing.T) {
	for _, name := range []string{"torch-2.14/fullgraph_err.caught.log", "torch-2.6/fullgraph_err.caught.log"} {
		a := Analyze(loadReport(t, fx(name)), nil, nil)
		if !a.Evidence.TorchSeen || !slices.Contains(a.Evidence.TorchSeenBy, "a torch exception message") {
			t.Errorf("%s: torch seen %v by %v", name, a.Evidence.TorchSeen, a.Evidence.TorchSeenBy)
		}
		if v := a.Verdict; v.State != StateNoEvidence || strings.Contains(v.Summary, "no torch output") {
			t.Errorf("%s: verdict %s: %s", name, v.State, v.Summary)
		}
		if c := a.Report.Counts; c.CompileErrors != 0 || c.GraphBreaks != 0 {
			t.Errorf("%s: counts %+v", name, c)
		}
	}
	// a program's own text that names torch is not torch output
	plain := filepath.Join(t.TempDir(), "plain.log")
	os.WriteFile(plain, []byte("loading torch model\nSet TORCH_LOGS to see more\nepoch 1 done\n"), 0o644)
	if a := Analyze(loadReport(t, plain), nil, nil); a.Evidence.TorchSeen {
		t.Errorf("plain output: torch seen by %v", a.Evidence.TorchSeenBy)
	}
}

// A Python warning raised inside torch (torch/_inductor/cudagraph_trees.py: "Unable to hit fast path of
// CUDAGraphs …") is torch output: g15b read "no torch output: nothing counted" and "get torch output first" above
// the two findings made of torch's own warnings.
func TestTorchWarningIsTorchOutput(t *testing.T) {
	a := Analyze(loadReport(t, fx("torch-2.11-cuda/g15b_cg_pending_backward_zero_grad.triage.log")), nil, nil)
	if !a.Evidence.TorchSeen || !slices.Contains(a.Evidence.TorchSeenBy, "a torch warning") {
		t.Errorf("torch seen %v by %v", a.Evidence.TorchSeen, a.Evidence.TorchSeenBy)
	}
	var text strings.Builder
	WriteReportText(&text, a, TextOptions{Width: 200})
	if s := text.String(); strings.Contains(s, "no torch output") || strings.Contains(s, "get torch output first") {
		t.Errorf("report:\n%s", s)
	}
	// a warning the program raised itself is not torch's
	user := filepath.Join(t.TempDir(), "user.log")
	os.WriteFile(user, []byte("/tmp/repro/x.py:17: UserWarning: Unable to hit fast path of CUDAGraphs because of pending, uninvoked backwards.\n  warnings.warn(\n"), 0o644)
	if a := Analyze(loadReport(t, user), nil, nil); slices.Contains(a.Evidence.TorchSeenBy, "a torch warning") {
		t.Errorf("a user's warning: torch seen by %v", a.Evidence.TorchSeenBy)
	}
}

// The steady report of logs alone does not say CUDA-graph skips "were not logged": nothing says which names were
// on (tlparse's simple.log, a trace: "cudagraph skips unknown" in its counts line, "were not logged" below it).
func TestNothingTextOfLogsAloneSaysNoSign(t *testing.T) {
	a := Analyze(loadReport(t, fx("tlparse/simple.log")), nil, nil)
	if a.Verdict.State != StateSteady || a.Evidence.CudagraphSkipsLogged {
		t.Fatalf("the test wants a steady log without skips logged: %s %+v", a.Verdict.State, a.Evidence)
	}
	var text strings.Builder
	WriteReportText(&text, a, TextOptions{Width: 300})
	if s := text.String(); strings.Contains(s, "skips were not logged") || !strings.Contains(s, "no sign CUDA-graph skips were logged (") {
		t.Errorf("text:\n%s", s)
	}
}

// Torch's log lines name their process (glog's pid): lines of two processes without a rank prefix are no "single
// process" (two real 2.14 runs in one file, as a job launched without rank prefixes, or a script run twice into
// one log, prints them). The header and the rank agreement say so, in every format.
func TestTwoProcessesWithoutRankPrefix(t *testing.T) {
	a := Analyze(loadReport(t, twoProcessLog(t)), nil, nil)
	if a.Evidence.Processes != 2 || a.Evidence.ProcessesText() != "2 processes, no rank prefix" {
		t.Errorf("processes %d: %q", a.Evidence.Processes, a.Evidence.ProcessesText())
	}
	if ra := a.RankAgreement; ra.Summary != "not compared: 2 processes whose lines carry no rank prefix" || ra.Agree {
		t.Errorf("agreement %+v", ra)
	}
	var text, md strings.Builder
	WriteReportText(&text, a, TextOptions{Width: 200})
	WriteMarkdown(&md, a)
	if strings.Contains(text.String(), "single process") || strings.Contains(md.String(), "single process") {
		t.Errorf("text:\n%s\nmarkdown:\n%s", text.String(), md.String())
	}
	// one run's log is one process
	if a := Analyze(loadReport(t, fx("torch-2.14/r01_branch_print.triage.log")), nil, nil); a.Evidence.Processes != 1 || a.Evidence.ProcessesText() != "single process" {
		t.Errorf("one run: %d %q", a.Evidence.Processes, a.Evidence.ProcessesText())
	}
}

// --ranks-agree on lines of two processes without rank prefixes is no evidence that says "one process".
func TestRanksAgreeGateOfTwoUnprefixedProcesses(t *testing.T) {
	a := Analyze(loadReport(t, twoProcessLog(t)), nil, nil)
	why := MissingEvidence(a, GateOptions{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true})
	if !strings.Contains(why, "2 processes whose lines carry no rank prefix") || strings.Contains(why, "one process") {
		t.Errorf("missing evidence %q", why)
	}
}

// twoProcessLog writes two real 2.14 runs one after the other into one file: torch's lines of two pids, no rank
// prefix.
func twoProcessLog(t *testing.T) string {
	t.Helper()
	var both []byte
	for _, name := range []string{"torch-2.14/r01_branch_print.triage.log", "torch-2.14/r02_item.triage.log"} {
		data, err := os.ReadFile(fx(name))
		if err != nil {
			t.Fatal(err)
		}
		both = append(both, data...)
	}
	path := filepath.Join(t.TempDir(), "two.log")
	if err := os.WriteFile(path, both, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Processes are counted up to logparse.MaxPIDs: that many is a floor, said as one.
func TestManyProcessesAreAFloor(t *testing.T) {
	ev := ReportEvidence{TorchSeen: true, Processes: logparse.MaxPIDs}
	if got := ev.ProcessesText(); got != "at least 64 processes, no rank prefix" {
		t.Errorf("%q", got)
	}
}

// A compile-time headline whose phase is not known on one side (a warm run's trace without inductor time) names
// the frame plainly: it read "-4.1 s compile (5.2 s → 1.0 s): on `f` [0/0]" (real 2.14.1 cold/warm runs).
func TestCompareHeadlineWithoutPhase(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	res := &CompareResult{Compile: &Delta{What: "total", A: f(5.16), B: f(1.04), DeltaS: f(-4.12), Big: true},
		Frames: []Delta{{What: "`f` [0/0]", A: f(5.16), B: f(1.04), DeltaS: f(-4.12), Big: true}}}
	if got, _ := res.verdict(); !strings.HasPrefix(got, "-4.1 s compile (5.2 s → 1.0 s) in `f` [0/0] -4.1 s;") {
		t.Errorf("%q", got)
	}
	res.Phases = []Delta{{What: "triton", DeltaS: f(-1.2), Big: true}}
	// the phase's change and the frame's are apart: a phase's is the sum over frames (TestCompareHeadlineKeepsPhaseAndFrameApart)
	if got, _ := res.verdict(); !strings.HasPrefix(got, "-4.1 s compile (5.2 s → 1.0 s): triton -1.2 s; most in `f` [0/0] -4.1 s;") {
		t.Errorf("%q", got)
	}
}
