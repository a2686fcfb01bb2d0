package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
	"github.com/torchtriage/torchtriage/triage/story"
)

// finish hands the model the final batch of run id after its stderr output and its end (meta).
func finish(m *Model, id int, stderr string, end runs.Meta) {
	start := fixedNow.Add(-3 * time.Second)
	lr := session.NewFollower(id, start)
	if stderr != "" {
		lr.Apply(session.Event{RunID: id, Kind: session.EventOutput, Stream: "stderr", Data: []byte(stderr)}, start)
	}
	end.ID, end.Name, end.Preset, end.TorchLogs, end.Start = id, "0001-breaks", "breaks", "graph_breaks,recompiles", start
	if end.State == runs.StateFailedToStart {
		lr.Apply(session.Event{RunID: id, Kind: session.EventError, Meta: &end, Time: fixedNow}, fixedNow)
	} else {
		lr.Apply(session.Event{RunID: id, Kind: session.EventExited, Meta: &end, Time: fixedNow}, fixedNow)
	}
	m.Update(batchMsg{lr.Batch(m.analyzer(), fixedNow)})
}

func TestLaunchThatFailsShowsAFailureBannerNotNothingToFix(t *testing.T) {
	m := liveModel(t, 80, 24)
	m.opt.spec.Argv = []string{"pythn", "x.py"}
	finish(m, 1, "", runs.Meta{State: runs.StateFailedToStart,
		Error: `start pythn: exec: "pythn": executable file not found in $PATH`})
	out := plain(m)
	for _, want := range []string{"✗ did not start ", `"pythn": executable file not found`, "command: pythn x.py"} {
		if !strings.Contains(out, want) {
			t.Errorf("screen lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Nothing to fix") || strings.Contains(out, "steady") {
		t.Errorf("a run that did not start reads as fine:\n%s", out)
	}
}

func TestExitBeforeAnyTorchOutputShowsTheLaunchersLastStderrLines(t *testing.T) {
	m := liveModel(t, 80, 24)
	code := 1
	finish(m, 1, "Traceback (most recent call last):\n  File \"/src/x.py\", line 1, in <module>\n    import torch\n"+
		"ModuleNotFoundError: No module named 'torch'\n", runs.Meta{State: runs.StateExited, ExitCode: &code})
	out := plain(m)
	for _, want := range []string{"✗ did not start ", "exited with code 1 before any torch output",
		"What the launcher printed last", "ModuleNotFoundError: No module named 'torch'"} {
		if !strings.Contains(out, want) {
			t.Errorf("screen lacks %q:\n%s", want, out)
		}
	}
}

func TestRunStoppedByTheToolIsShownAsStoppedNotAsAFailure(t *testing.T) {
	m := liveModel(t, 100, 30)
	code := 130
	finish(m, 1, "I1121 07:47:33.000000 1933 torch/_dynamo/eval_frame.py:1] torch seen\n", runs.Meta{State: runs.StateKilled,
		Signal: "SIGINT", ExitCode: &code, StopReason: "cancelled", DurationS: 3})
	out := plain(m)
	if !strings.Contains(out, "■ stopped by torchtriage (cancelled) · 0:03") {
		t.Errorf("header does not say the tool stopped the run:\n%s", out)
	}
	if strings.Contains(out, "✗") || strings.Contains(out, "killed") || strings.Contains(out, "Nothing to fix") {
		t.Errorf("a run the tool stopped reads as a failure:\n%s", out)
	}
	if !strings.Contains(out, "stopped by torchtriage (cancelled) before the run finished") {
		t.Errorf("the recommended box does not word the verdict:\n%s", out)
	}
	if got := runState(m.cur); !strings.HasPrefix(got, "stopped by torchtriage (cancelled)") {
		t.Errorf("runs view state = %q", got)
	}
}

// A stored run of an earlier session that the tool stopped reads as its verdict words it, not "killed".
func TestStoredRunStoppedByTheToolReadsAsStopped(t *testing.T) {
	code := 130
	st := &story.Run{State: "killed", Signal: "interrupt", ExitCode: &code, DurationS: 20,
		Verdict: "stopped by torchtriage (the tool exited) before the run finished", StoppedBy: "the tool exited"}
	if got := rowState(runRow{id: 1, st: st}); got != "stopped by torchtriage (the tool exited) · 0:20" {
		t.Errorf("rowState = %q", got)
	}
	st.Verdict, st.StoppedBy = "not steady: the run was killed (SIGKILL) without an error torchtriage recognises", ""
	if got := rowState(runRow{id: 1, st: st}); !strings.HasPrefix(got, "killed (interrupt)") {
		t.Errorf("rowState = %q", got)
	}
}
