package triage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/session"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Hangs and collective failures on the real 2-rank gloo recordings of testdata/dist-hangs (torch 2.14.1 and 2.6,
// their ground truth in its expected.json) and testdata/recorded/diverged-hang.

// analyzeStoredRun is the analysis `torchtriage report DIR` makes of a stored run: its logs, probe files and
// meta.json.
func analyzeStoredRun(t *testing.T, dir string) *triage.Analysis {
	t.Helper()
	rep, _, err := triage.BuildReport([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	probes, _ := session.ReadProbes(dir)
	set, _ := playbooks.Builtin()
	return triage.AnalyzeRun(rep, set, probes, session.RunFactsOfDir(dir))
}

func hangFinding(a *triage.Analysis) *findings.Finding {
	for i := range a.Findings {
		if a.Findings[i].Kind == findings.KindHang {
			return &a.Findings[i]
		}
	}
	return nil
}

// placesOf is each rank's place as "<rank> <waiting_in> <file>:<line>", sorted.
func placesOf(h *report.Hang) []string {
	var out []string
	for _, r := range h.Ranks {
		out = append(out, report.Itoa(r.Rank)+" "+r.WaitingIn+" "+filepath.Base(r.File)+":"+report.Itoa(r.Line))
	}
	slices.Sort(out)
	return out
}

// The real deadlock the tool stopped: rank 0 in all_reduce, rank 1 in barrier (the debug flag set on rank 0 only),
// each rank's place from the stack dump the tool took before its stop. The dumps of `check -- torchrun …` carry no
// rank prefix and these recordings' probe no thread id: which rank is which is not known, where each waits is.
func TestHangConditionalCollectiveFromTheToolsStackDumps(t *testing.T) {
	cases := []struct {
		run   string
		wants []string
	}{
		{"h01_cond_allreduce.check-2.14-rerun", []string{"-1 all_reduce h01_cond_allreduce.py:28", "-1 barrier h01_cond_allreduce.py:30"}},
		{"h01_cond_allreduce.check-2.6", []string{"-1 all_reduce h01_cond_allreduce.py:28", "-1 barrier h01_cond_allreduce.py:30"}},
		{"h03_compiled_cond_collective.check-2.14", []string{"-1 barrier h03_compiled_cond_collective.py:30", "-1 compiled_region h03_compiled_cond_collective.py:18"}},
		{"h03_compiled_cond_collective.check-2.6", []string{"-1 barrier h03_compiled_cond_collective.py:30", "-1 compiled_region h03_compiled_cond_collective.py:18"}},
	}
	for _, c := range cases {
		a := analyzeStoredRun(t, testlogs.Path(t, "dist-hangs", "runs", c.run))
		if a.Verdict.State != triage.StateHung {
			t.Errorf("%s: verdict %s %q, want hung", c.run, a.Verdict.State, a.Verdict.Summary)
		}
		h := a.Hang
		if h == nil {
			t.Errorf("%s: no hang", c.run)
			continue
		}
		if h.State != report.HangHung || h.Cause != report.CauseConditionalCollective || !slices.Equal(placesOf(h), c.wants) {
			t.Errorf("%s: hang %s %s %v, want hung conditional_collective %v", c.run, h.State, h.Cause, placesOf(h), c.wants)
		}
		f := hangFinding(a)
		if f == nil || f.Playbook != "dist-conditional-collective" || f.Severity != "high" {
			t.Errorf("%s: hang finding %+v", c.run, f)
		}
	}
}

// With torchrun's --tee (the tool's --nproc) each dump line names its local rank: every rank is known.
func TestHangDivergedRanksNamed(t *testing.T) {
	a := analyzeStoredRun(t, testlogs.Path(t, "recorded", "diverged-hang", "runs", "0001-breaks"))
	h := a.Hang
	if a.Verdict.State != triage.StateHung || h == nil || h.State != report.HangHung {
		t.Fatalf("verdict %s %q, hang %+v", a.Verdict.State, a.Verdict.Summary, h)
	}
	want := []string{"0 all_reduce skip_sync.py:19", "1 monitored_barrier skip_sync.py:21"}
	if got := placesOf(h); !slices.Equal(got, want) || h.Cause != report.CauseConditionalCollective {
		t.Errorf("places %v cause %s, want %v", got, h.Cause, want)
	}
	const line = "rank 0 waits in all_reduce at skip_sync.py:19 · rank 1 in monitored_barrier at skip_sync.py:21 — ranks call different collectives"
	if h.Summary != line {
		t.Errorf("summary %q, want %q", h.Summary, line)
	}
	var txt, md, js strings.Builder
	for _, o := range []struct {
		format string
		w      *strings.Builder
	}{{"text", &txt}, {"markdown", &md}, {"json", &js}} {
		if err := render.WriteReport(o.w, a, o.format, text.Options{Width: 200}); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(txt.String(), "Hang: hung: "+line) || !strings.Contains(md.String(), "**Hang:** hung — "+render.MarkdownEscape(line)) {
		t.Errorf("text or Markdown lacks the hang line:\n%s\n%s", txt.String(), md.String())
	}
	var doc struct {
		Hang struct {
			State string `json:"state"`
			Ranks []struct {
				Rank      int      `json:"rank"`
				WaitingIn string   `json:"waiting_in"`
				Site      string   `json:"site"`
				SinceS    *float64 `json:"since_s"`
				Compiling bool     `json:"compiling"`
			} `json:"ranks"`
		} `json:"hang"`
		Verdict struct {
			State string `json:"state"`
		} `json:"verdict"`
	}
	if err := json.Unmarshal([]byte(js.String()), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Hang.State != "hung" || doc.Verdict.State != "hung" || len(doc.Hang.Ranks) != 2 || doc.Hang.Ranks[0].WaitingIn != "all_reduce" ||
		doc.Hang.Ranks[0].Site != "skip_sync.py:19" || doc.Hang.Ranks[1].Site != "skip_sync.py:21" {
		t.Errorf("JSON hang %+v verdict %s", doc.Hang, doc.Verdict.State)
	}
}

// Three processes dumped at once into one pipe and their lines interleave: no place is claimed from them.
func TestHangInterleavedDumpsClaimNothing(t *testing.T) {
	for _, run := range []string{"h01_cond_allreduce.check-2.14", "h01_cond_allreduce.check-2.14-try1"} {
		a := analyzeStoredRun(t, testlogs.Path(t, "dist-hangs", "runs", run))
		if a.Verdict.State == triage.StateHung || a.Hang == nil || a.Hang.State != report.HangUnknown ||
			!strings.Contains(strings.Join(a.Hang.Basis, "; "), "interleave") {
			t.Errorf("%s: verdict %s, hang %+v", run, a.Verdict.State, a.Hang)
		}
	}
}

// A slow rank is never hung: rank 1's compile took 20 s while rank 0 waited in all_reduce, then the run completed.
func TestHangSlowCompilingRankIsNotHung(t *testing.T) {
	a := analyzeStoredRun(t, testlogs.Path(t, "dist-hangs", "runs", "h05b_slow_backend.check-2.14"))
	if a.Verdict.State == triage.StateHung || a.Hang == nil || a.Hang.State != report.HangNotHung || a.Hang.Cause != report.CauseRankCompiling {
		t.Fatalf("verdict %s, hang %+v", a.Verdict.State, a.Hang)
	}
	compiling := false
	for _, r := range a.Hang.Ranks {
		compiling = compiling || r.Rank == 1 && r.Compiling
	}
	if f := hangFinding(a); !compiling || f == nil || f.Playbook != "dist-rank-compiling" || f.Severity == "high" ||
		!strings.Contains(f.Title, "rank 1") || !strings.Contains(f.Title, "not a hang") {
		t.Errorf("ranks %+v, finding %+v", a.Hang.Ranks, f)
	}
	a = analyzeStoredRun(t, testlogs.Path(t, "dist-hangs", "runs", "h05_slow_compile.check-2.14"))
	if a.Verdict.State == triage.StateHung || a.Hang == nil || a.Hang.State != report.HangNotHung {
		t.Errorf("the stall that resumed: verdict %s, hang %+v", a.Verdict.State, a.Hang)
	}
}

type expectedHang struct {
	Hang             bool `json:"hang"`
	FirstFailureRank *int `json:"first_failure_rank"`
}

// The logs of testdata/dist-hangs against their ground truth: a rank waited out a collective timeout (hung), or
// not; and the first failure is the rank whose own failure began the end — a timeout, an exception, an abort, a kill
// — never a peer that lost its connection, and none where DETAIL's check raised on every rank.
func TestHangLogsAgainstGroundTruth(t *testing.T) {
	data, err := os.ReadFile(testlogs.Path(t, "dist-hangs", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]struct {
		Hang expectedHang `json:"hang"`
	}
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	n := 0
	for name, e := range all {
		if !strings.HasSuffix(name, ".log") || strings.HasPrefix(name, "runs/") {
			continue
		}
		n++
		a := triage.AnalyzeFile(t, testlogs.Path(t, "dist-hangs", name))
		if hung := a.Verdict.State == triage.StateHung; hung != e.Hang.Hang {
			t.Errorf("%s: verdict %s %q, want hung %v", name, a.Verdict.State, a.Verdict.Summary, e.Hang.Hang)
		}
		ff := a.Report.FirstFailure
		switch {
		case e.Hang.FirstFailureRank == nil && ff != nil:
			t.Errorf("%s: first failure %s, want none", name, ff.Text())
		case e.Hang.FirstFailureRank != nil && (ff == nil || ff.Rank != *e.Hang.FirstFailureRank):
			t.Errorf("%s: first failure %s, want rank %d", name, ff.Text(), *e.Hang.FirstFailureRank)
		}
	}
	if n != 36 {
		t.Errorf("%d logs, want 36", n)
	}
}

// DETAIL names the ops: each rank's own words are what it ran (what it says of the other rank is the wrapper's
// fingerprint exchange, which may itself be mismatched).
func TestHangDetailMismatchNamesTheOps(t *testing.T) {
	cases := []struct{ log, ops string }{
		{"torch-2.14/h01_cond_allreduce.detail.log", "0 all_reduce, 1 barrier"},
		{"torch-2.14/h02_mismatch_ops.detail.log", "0 all_reduce, 1 broadcast"},
		{"torch-2.6/h02_mismatch_ops.detail.log", "0 all_reduce, 1 broadcast"},
		{"torch-2.14/h02b_mismatch_shapes.detail.log", "0 all_reduce [4, 8], 1 all_reduce [6, 8]"},
	}
	for _, c := range cases {
		a := triage.AnalyzeFile(t, testlogs.Path(t, "dist-hangs", c.log))
		h := a.Hang
		if h == nil || h.Mismatch == nil || h.Cause != report.CauseCollectiveMismatch || h.State != report.HangNotHung {
			t.Errorf("%s: hang %+v", c.log, h)
			continue
		}
		if got := h.Mismatch.OpsText(); got != c.ops {
			t.Errorf("%s: ops %q, want %q", c.log, got, c.ops)
		}
		if f := hangFinding(a); f == nil || f.Playbook != "dist-collective-mismatch" {
			t.Errorf("%s: finding %+v", c.log, f)
		}
	}
}

// A gloo timeout says how long the rank waited: since_s, from torch's own words.
func TestHangTimeoutSaysHowLong(t *testing.T) {
	a := triage.AnalyzeFile(t, testlogs.Path(t, "dist-hangs", "torch-2.14", "h01_cond_allreduce.plain.log"))
	if a.Hang == nil || a.Hang.State != report.HangHung || a.Hang.Cause != report.CauseConditionalCollective {
		t.Fatalf("hang %+v", a.Hang)
	}
	want := []string{"0 all_reduce h01_cond_allreduce.py:28", "1 barrier h01_cond_allreduce.py:30"}
	if got := placesOf(a.Hang); !slices.Equal(got, want) {
		t.Errorf("places %v, want %v", got, want)
	}
	for _, r := range a.Hang.Ranks {
		if r.Rank == 1 && (r.SinceS == nil || *r.SinceS != 15) {
			t.Errorf("rank 1 since %v, want 15 s (Timed out waiting 15000ms)", r.SinceS)
		}
	}
}

// A rank killed (SIGKILL, no traceback) is the first failure, not the peer whose collective then lost it.
func TestHangKilledRankIsTheFirstFailure(t *testing.T) {
	for _, log := range []string{"torch-2.14/h04b_rank_killed.plain.log", "torch-2.6/h04b_rank_killed.plain.log"} {
		a := triage.AnalyzeFile(t, testlogs.Path(t, "dist-hangs", log))
		ff := a.Report.FirstFailure
		if ff == nil || ff.Rank != 1 || !strings.Contains(ff.Text(), "SIGKILL") || !strings.Contains(a.Verdict.FirstFailure, "rank 1") {
			t.Errorf("%s: first failure %s", log, ff.Text())
		}
	}
}

// A real deadlock the tool stopped whose probe recorded each rank's main-thread id (torch 2.14.1, two gloo ranks):
// the hang names rank 0 in all_reduce and rank 1 in barrier, and "where each rank was" says the same ranks, from the
// same attribution, not "1 process without a rank prefix" twice beside a hang that names them.
func TestStoppedAtNamesTheRanksTheHangNames(t *testing.T) {
	const dir = "../testdata/dist-hangs/runs/h01_cond_allreduce.check-2.14-threads"
	a := analyzeStoredRun(t, dir)
	if a.Hang == nil || a.Hang.State != report.HangHung {
		t.Fatalf("hang %+v", a.Hang)
	}
	if got, want := placesOf(a.Hang), []string{"0 all_reduce h01_cond_allreduce.py:28", "1 barrier h01_cond_allreduce.py:30"}; !slices.Equal(got, want) {
		t.Errorf("hang places %v, want %v", got, want)
	}
	head, lines := a.StoppedAtWords()
	if head != "Where each rank was when torchtriage stopped the run" ||
		!slices.Equal(lines, []string{"rank 0: h01_cond_allreduce.py:28 (stack dump)", "rank 1: h01_cond_allreduce.py:30 (stack dump)"}) {
		t.Errorf("stopped at %q %q", head, lines)
	}
}

// A run the tool stopped with no stall on record (testdata/recorded/stopped-dist-hang: a 2-minute timeout, the
// stall setting longer) has no measure of how long each rank waited: since_s stays null, never a made-up number.
// What is known is a bound, labelled as one: each rank's last compile ended (the probe's compile state, since
// 1795750345.83 and .84) 103.9 s before the run's end (meta.json's end), so it waited there at most that long.
// A run with a stall keeps its measure and no bound.
func TestHangSinceWithoutAStallIsABoundLabelled(t *testing.T) {
	a := analyzeStoredRun(t, "../testdata/recorded/stopped-dist-hang/runs/0002-breaks")
	if a.Hang == nil || len(a.Hang.Ranks) != 2 {
		t.Fatalf("hang %+v", a.Hang)
	}
	for _, r := range a.Hang.Ranks {
		if r.SinceS != nil || r.AtMostS == nil || *r.AtMostS != 103.9 {
			t.Errorf("rank %d: since_s %v, at_most_s %v", r.Rank, r.SinceS, r.AtMostS)
		}
		if got := r.SinceText(); got != "at most 1m44s (since its last compile)" {
			t.Errorf("rank %d: %q", r.Rank, got)
		}
	}
	if !slices.ContainsFunc(a.Hang.Basis, func(s string) bool {
		return strings.Contains(s, "not known: the tool recorded no stall") && strings.Contains(s, "at most since each rank's last compile ended")
	}) {
		t.Errorf("basis %q", a.Hang.Basis)
	}
	js, err := json.Marshal(a.Hang.Ranks[0])
	if err != nil || !strings.Contains(string(js), `"since_s":null`) || !strings.Contains(string(js), `"at_most_s":103.9`) {
		t.Errorf("json %s", js)
	}
	stalled := analyzeStoredRun(t, "../testdata/dist-hangs/runs/h01_cond_allreduce.check-2.14-threads")
	for _, r := range stalled.Hang.Ranks {
		if r.SinceS == nil || r.AtMostS != nil {
			t.Errorf("stalled run rank %d: since_s %v, at_most_s %v", r.Rank, r.SinceS, r.AtMostS)
		}
	}
}

// gloo's size check on real 2-rank runs whose all_reduce shapes differ ([4, 8] on rank 0, [6, 8] on rank 1), without
// DETAIL: rank 0 aborts ("gloo::EnforceNotMet … op.preamble.length <= op.nbytes. 48 vs 32", SIGABRT, no Python
// traceback), rank 1 loses its peer. The report had no hang and named only rank 1's lost peer; it is the collective
// mismatch it is: the aborting rank (torchrun's table: SIGABRT) with the bytes, rank 1's all_reduce, the
// collective-mismatch playbook, not hung (the abort ended it), and counted as before (1 runtime error).
func TestHangGlooSizeCheckIsACollectiveMismatch(t *testing.T) {
	for _, log := range []string{"torch-2.14/h02b_mismatch_shapes.plain.log", "torch-2.6/h02b_mismatch_shapes.plain.log"} {
		a := triage.AnalyzeFile(t, testlogs.Path(t, "dist-hangs", log))
		h := a.Hang
		if h == nil || h.Cause != report.CauseCollectiveMismatch || h.State != report.HangNotHung || h.Mismatch == nil {
			t.Fatalf("%s: hang %+v", log, h)
		}
		if m := h.Mismatch; m.By != "gloo_size" || m.Received != 48 || m.Expected != 32 || m.OpsText() != "1 all_reduce" {
			t.Errorf("%s: mismatch %+v", log, m)
		}
		want := "rank 0 aborted on gloo's size check (received 48 bytes, its collective expected 32) · rank 1 in all_reduce at h02b_mismatch_shapes.py:26"
		if !strings.HasPrefix(h.Summary, want) {
			t.Errorf("%s: summary %q", log, h.Summary)
		}
		f := hangFinding(a)
		if f == nil || f.Playbook != "dist-collective-size-mismatch" || !strings.HasPrefix(f.Title, "Collectives differ between ranks: rank 0 aborted") {
			t.Errorf("%s: finding %+v", log, f)
		}
		if !strings.HasPrefix(a.Verdict.Summary, "not steady: collectives differ between ranks") {
			t.Errorf("%s: verdict %q", log, a.Verdict.Summary)
		}
		if a.Report.Counts.RuntimeErrors != 1 || a.Verdict.State == triage.StateHung {
			t.Errorf("%s: runtime errors %d, verdict %s", log, a.Report.Counts.RuntimeErrors, a.Verdict.State)
		}
	}
}

// A real hang run with `check --collective-timeout 10s` (torch 2.14.1, h01: the program's own timeout 120 s): the
// probe set init_process_group's timeout (its note on stderr, the variable in meta.json's env), gloo gave up after
// 10 s, and the hang says that timeout was the tool's, not the program's.
func TestHangTimeoutSetByTheToolIsSaidToBeTheTools(t *testing.T) {
	a := analyzeStoredRun(t, "../testdata/dist-hangs/runs/h01_cond_allreduce.check-2.14-colltimeout")
	if a.Hang == nil || a.Hang.State != report.HangHung || a.Hang.Cause != report.CauseConditionalCollective {
		t.Fatalf("hang %+v", a.Hang)
	}
	if !slices.ContainsFunc(a.Hang.Basis, func(s string) bool {
		return strings.Contains(s, "after 10s: the timeout torchtriage set, --collective-timeout, not the program's")
	}) {
		t.Errorf("basis %q", a.Hang.Basis)
	}
	// the same log without the tool's setting (the h01 recording, the program's own 15 s) says nothing of it
	plain := triage.AnalyzeFile(t, testlogs.Path(t, "dist-hangs", "torch-2.14/h01_cond_allreduce.plain.log"))
	if plain.Hang == nil || slices.ContainsFunc(plain.Hang.Basis, func(s string) bool { return strings.Contains(s, "torchtriage set") }) {
		t.Errorf("plain: %+v", plain.Hang)
	}
}

// A break-it test must crash, not hang: a run that ended with an error only because a collective waited until
// its process group's timeout (here the 10 s --collective-timeout set; real torch 2.14.1, exit 1) hung first. It
// passed `check --expect-crash` as "crashed as expected"; it fails, saying it hung, as a run the tool stopped does.
func TestExpectCrashFailsARunThatHungUntilTheCollectiveTimeout(t *testing.T) {
	a := analyzeStoredRun(t, "../testdata/dist-hangs/runs/h01_cond_allreduce.check-2.14-colltimeout")
	if a.Run == nil || a.Run.Outcome != report.OutcomeFailed {
		t.Fatalf("run %+v", a.Run)
	}
	res := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, ExpectCrash: true})
	if res.Passed || res.Crashed != "" || len(res.Failures) != 1 || res.Failures[0].Rule != "--expect-crash" ||
		!strings.Contains(res.Failures[0].Message, "it hung until torch's collective timeout ended it: rank 0 waits in all_reduce at h01_cond_allreduce.py:28") {
		t.Errorf("expect-crash: passed %v, crashed %q, failures %+v", res.Passed, res.Crashed, res.Failures)
	}
	if res.RunOutcome != "hung" {
		t.Errorf("run outcome %q", res.RunOutcome)
	}
}
