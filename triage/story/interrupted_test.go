package story

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/text"
)

// A run whose tool died (SIGKILL, full disk, hang-up) stays "running" in meta.json: the log shows it interrupted,
// never with a steady-state verdict.
func TestInterruptedRunIsNotSteady(t *testing.T) {
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip(err)
	}
	store := t.TempDir()
	storyRun(t, store, runs.Meta{ID: 1, Preset: "breaks", UserArgv: []string{"python", "repro.py"},
		State: runs.StateRunning, Pid: gone.Process.Pid, Supervisor: &runs.Supervisor{Pid: gone.Process.Pid}}, nil, "-")
	s, err := Build(store)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Runs[0]
	if r.State != "interrupted" || r.Exit != "interrupted" || r.Steady || !strings.Contains(r.Verdict, "interrupted") {
		t.Errorf("state %q exit %q steady %v verdict %q; want interrupted and no steady verdict", r.State, r.Exit, r.Steady, r.Verdict)
	}
	var b bytes.Buffer
	WriteText(&b, s, text.Options{Width: 200})
	if strings.Contains(b.String(), "steady") || !strings.Contains(b.String(), "interrupted") {
		t.Errorf("log text:\n%s", b.String())
	}
}

// A run the tool stopped says so in a field of its own (the runs view reads it, not the verdict's words), and a
// run that died by itself has none.
func TestStoppedByToolIsTyped(t *testing.T) {
	store := t.TempDir()
	code := 130
	log := "torch-2.14/gb_recompile.triage.log"
	storyRun(t, store, runs.Meta{ID: 1, Preset: "breaks", UserArgv: []string{"python", "repro.py"},
		State: runs.StateKilled, Signal: "SIGINT", ExitCode: &code, StopReason: "timed out after 10m0s"}, nil, log)
	storyRun(t, store, runs.Meta{ID: 2, Preset: "breaks", UserArgv: []string{"python", "repro.py"},
		State: runs.StateKilled, Signal: "SIGKILL"}, nil, log)
	s, err := Build(store)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Runs[0].StoppedBy; got != "timed out after 10m0s" || !strings.Contains(s.Runs[0].Verdict, got) {
		t.Errorf("stopped run: StoppedBy %q, verdict %q", got, s.Runs[0].Verdict)
	}
	if got := s.Runs[1].StoppedBy; got != "" {
		t.Errorf("a run killed by someone else: StoppedBy %q", got)
	}
	// its heading says the tool stopped it, never "killed (SIGINT)" (the program's own death); a run killed by
	// someone else keeps its signal
	if a, b := s.Runs[0].Exit, s.Runs[1].Exit; a != "stopped by torchtriage (timed out after 10m0s)" || b != "killed (SIGKILL)" {
		t.Errorf("exits %q, %q", a, b)
	}
	var txt, md bytes.Buffer
	WriteText(&txt, s, text.Options{Width: 200})
	WriteMarkdown(&md, s)
	for _, out := range []string{txt.String(), md.String()} {
		if strings.Contains(out, "SIGINT") || !strings.Contains(out, "stopped by torchtriage (timed out after 10m0s)") {
			t.Errorf("log:\n%s", out)
		}
	}
}
