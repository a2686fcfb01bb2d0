package report

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/logparse"
)

// The real dumps of `check -- torchrun …` (testdata/dist-hangs, h01 on 2.14.1) carry no rank: with the probe's start
// files naming each rank's main thread (what the probe records since 2026-12; these recordings predate it, so the
// ids are the dumps' own, paired as the ground truth pairs them: rank 0 in all_reduce), each dump is its rank's.
func TestHangDumpsAttributedByThreadID(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "dist-hangs", "runs", "h01_cond_allreduce.check-2.14-rerun")
	l, err := Load([]string{dir}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	run := &RunFacts{Outcome: OutcomeStopped, StopReason: "timed out after 30s", Direct: true, WorldSize: 0,
		Started: []ProbeStart{
			{PID: 3395, Rank: 0, RankSource: "env", Thread: 0x00007fc74412c200},
			{PID: 3396, Rank: 1, RankSource: "env", Thread: 0x00007f510f141200},
		}}
	h := HangOf(l.Report, run, []int{0, 1})
	const want = "rank 0 waits in all_reduce at h01_cond_allreduce.py:28 · rank 1 in barrier at h01_cond_allreduce.py:30 — ranks call different collectives"
	if h == nil || h.State != HangHung || h.Summary != want || len(h.Ranks) != 2 || h.Ranks[0].Rank != 0 || h.Ranks[1].Rank != 1 {
		t.Fatalf("hang %+v", h)
	}
	if !strings.Contains(strings.Join(h.Basis, "; "), "by thread id") {
		t.Errorf("basis %q", h.Basis)
	}
	// two processes that share an id (no address-space randomisation) name neither
	run.Started[1].Thread = run.Started[0].Thread
	if h := HangOf(l.Report, run, []int{0, 1}); h == nil || h.Ranks[0].Rank != -1 {
		t.Errorf("a shared id attributed a dump: %+v", h)
	}
}

// frames innermost first, as a dump prints them; the library paths are torch's and Python's own (2.14.1, 3.14).
func frames(fs ...string) []logparse.Frame {
	var out []logparse.Frame
	for _, f := range fs {
		file, fn, _ := strings.Cut(f, " ")
		out = append(out, logparse.Frame{File: file, Line: 1, Func: fn})
	}
	return out
}

func TestWaitOf(t *testing.T) {
	const (
		c10d = "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py"
		user = "/w/train.py <module>"
	)
	cases := []struct {
		frames   []logparse.Frame
		op       string
		kind     WaitKind
		userLine string
	}{
		{frames(c10d+" all_reduce", "/usr/lib/python3/dist-packages/torch/distributed/c10d_logger.py wrapper", user), "all_reduce", WaitCollective, "/w/train.py"},
		{frames(c10d+" recv", user), "recv", WaitCollective, "/w/train.py"},
		{frames("/usr/lib/python3/dist-packages/torch/cuda/__init__.py synchronize", user), "cuda_synchronize", WaitOther, "/w/train.py"},
		{frames("/usr/lib/python3.14/threading.py wait", "/usr/lib/python3.14/queue.py get",
			"/usr/lib/python3/dist-packages/torch/utils/data/dataloader.py _try_get_data",
			"/usr/lib/python3/dist-packages/torch/utils/data/dataloader.py _next_data", user), "data_loader", WaitOther, "/w/train.py"},
		{frames("/usr/lib/python3.14/threading.py wait", user), "lock", WaitOther, "/w/train.py"},
		{frames("/usr/lib/python3/dist-packages/torch/_inductor/compile_fx.py compile_fx_inner",
			"/usr/lib/python3/dist-packages/torch/_dynamo/convert_frame.py _compile", "/w/train.py step", user), "compiling", WaitCompiling, "/w/train.py"},
		{frames(user), "", WaitUnknown, "/w/train.py"},
	}
	for i, c := range cases {
		w := waitOf(c.frames)
		if w.Op != c.op || w.Kind != c.kind || w.User.File != c.userLine {
			t.Errorf("case %d: %+v, want %s %d at %s", i, w, c.op, c.kind, c.userLine)
		}
	}
}

func place(rank int, op string, kind WaitKind, line int) stackPlace {
	return stackPlace{rank: rank, localRank: -1, File: "/w/train.py", Line: line,
		wait: procWait{Op: op, Kind: kind, User: logparse.Frame{File: "/w/train.py", Line: line, Func: "<module>"}}}
}

// A rank died of its own error while the other waits in a collective, and the tool stopped the run: the first
// failure is named, and the hang is the dead rank's.
func TestHangRankDeadWhileOthersWait(t *testing.T) {
	rep := &Report{FirstFailure: &FirstFailure{ErrorSummary: ErrorSummary{Class: "ValueError", Message: "bad batch", Rank: 1,
		File: "/w/train.py", Line: 26}, By: "first_in_log", Of: 1}}
	rep.Stacks.Places = []stackPlace{place(0, "all_reduce", WaitCollective, 28)}
	run := &RunFacts{Outcome: OutcomeStopped, StopReason: "timed out after 30s"}
	h := HangOf(rep, run, []int{0, 1})
	if h == nil || h.State != HangHung || h.Cause != CauseRankDead ||
		h.Summary != "rank 0 waits in all_reduce at train.py:28 — rank 1 failed: ValueError: bad batch (/w/train.py:26) first" {
		t.Errorf("hang %+v", h)
	}
}

// A rank blocked in the data loader with the run silent to its end (the tool's stall): a wait outside collectives.
func TestHangWaitOutsideCollectives(t *testing.T) {
	rep := &Report{}
	rep.Stacks.Places = []stackPlace{place(0, "data_loader", WaitOther, 40)}
	since := time.Date(2026, 12, 7, 17, 0, 0, 0, time.UTC)
	run := &RunFacts{Outcome: OutcomeStopped, StopReason: "stalled", Stalls: []StallFact{{Since: since, Detected: since.Add(5 * time.Minute),
		Until: since.Add(6 * time.Minute)}}}
	h := HangOf(rep, run, []int{0})
	if h == nil || h.State != HangHung || h.Cause != CauseWaitOutside || h.Ranks[0].SinceS == nil || *h.Ranks[0].SinceS != 360 {
		t.Fatalf("hang %+v", h)
	}
	if h.Summary != "rank 0 waits in data_loader at train.py:40 — a wait outside collectives" {
		t.Errorf("summary %q", h.Summary)
	}
	// no stall: where it waits, not whether it hung
	run.Stalls = nil
	if h := HangOf(rep, run, []int{0}); h == nil || h.State != HangUnknown {
		t.Errorf("without a stall: %+v", h)
	}
}
