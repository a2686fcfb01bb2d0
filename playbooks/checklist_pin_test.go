package playbooks

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateChecklist = flag.Bool("update-checklist", false, "rewrite testdata/checklist_next.golden")

// pinState is a State with where it comes from: the input whose report reached it, or the combination it is.
type pinState struct {
	From  string `json:"from"`
	State State  `json:"state"`
}

// pinStates are the states the pin covers: every distinct State that `report` reaches on testdata's fixture logs
// and recorded runs (testdata/checklist_states.json, written from triage's State of each input), then every
// combination of what puts a step before the six, on a run that showed nothing and on one that showed
// everything, each with and without work found.
func pinStates(t *testing.T) []pinState {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "checklist_states.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []pinState
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	bases := []pinState{{"nothing shown", State{}}, {"everything shown", State{Ranks: 2, BaselineMeasured: true,
		LogsKnown: true, BreaksLogged: true, RecompilesLogged: true, CudagraphsLogged: true, UsesCUDAGraphs: true,
		RanksAgree: true, SteadyRerun: true}}}
	type field struct {
		name string
		set  func(*State)
	}
	fields := []field{
		{"logs", func(s *State) { s.LogsRejected = "ValueError: Unknown TORCH_LOGS name" }},
		{"wrong", func(s *State) {
			s.Wrong = "the compiled result is wrong (PyTorch's accuracy check): … [accuracy-check-failed]"
		}},
		{"crash", func(s *State) { s.Crash = "1 process died of a runtime error: RuntimeError: boom" }},
		{"failed", func(s *State) { s.Failed = "the run exited with code 3 without an error torchtriage recognises" }},
		{"stopped", func(s *State) { s.StoppedByTool = true }},
		{"hung", func(s *State) {
			s.Hung = "rank 0 waits in all_reduce at train.py:11 · rank 1 in barrier at train.py:13 — ranks call different collectives"
		}},
		{"unfinished", func(s *State) { // as triage words it: the tool's stop, else another
			s.Unfinished = map[bool]string{true: "stopped by torchtriage (timed out)", false: "still running"}[s.StoppedByTool]
		}},
		{"notorch", func(s *State) { s.NoTorch = "the run printed no torch output at all" }},
		{"work", func(s *State) { s.UnexpectedBreaks = 1 }},
	}
	for _, base := range bases {
		for mask := 0; mask < 1<<len(fields); mask++ {
			s, names := base.State, []string{base.From}
			for i, f := range fields {
				if mask&(1<<i) != 0 {
					f.set(&s)
					names = append(names, f.name)
				}
			}
			out = append(out, pinState{strings.Join(names, " + "), s})
		}
	}
	return out
}

// pinLine is what callers show of a state: the step NextStep proposes, the steps done, and Why of that step (the
// report's "Next step: fix the crash first: <why>", next_step.why in JSON, the TUI checklist's first line).
func pinLine(p pinState) string {
	step, done := NextStep(p.State)
	return fmt.Sprintf("%s\tnext=%s done=%s why=%q", p.From, step.ID, strings.Join(done, ","), p.State.Why(step))
}

// What NextStep proposes and Why says of it, for every state the fixtures reach and every combination of the
// steps before the six, is pinned: a change to the checklist's table shows here as a diff of the golden file.
func TestChecklistNextStepPinned(t *testing.T) {
	var lines []string
	for _, p := range pinStates(t) {
		lines = append(lines, pinLine(p))
	}
	got := strings.Join(lines, "\n") + "\n"
	golden := filepath.Join("testdata", "checklist_next.golden")
	if *updateChecklist {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		wl := strings.Split(string(want), "\n")
		for i, l := range strings.Split(got, "\n") {
			if i >= len(wl) || l != wl[i] {
				t.Errorf("line %d:\n got  %s\n want %s", i+1, l, wl[min(i, len(wl)-1)])
			}
		}
	}
}

// beforeTheSix is the order the steps before the six come in, the first that applies proposed.
var beforeTheSix = []Step{LogsStep, WrongStep, CrashStep, FailedStep, HangStep, StoppedStep, EvidenceStep}

// NextStep and Why read the same steps: a step before the six that NextStep proposes has a Why (the report prints
// "Next step: let the run finish first: <why>"), and NextStep proposes the first of them, in order, that Why
// gives a reason for (the tool's stop yields to work a step found); each of them is proposed by some state.
func TestStepsBeforeTheSixAgreeWithWhy(t *testing.T) {
	proposed := map[string]bool{}
	for _, p := range pinStates(t) {
		s := p.State
		step, _ := NextStep(s)
		proposed[step.ID] = true
		if step.ID != "" && step.N == 0 && s.Why(step) == "" {
			t.Errorf("%s: NextStep proposes %q, Why gives no reason", p.From, step.ID)
		}
		work := false
		for _, st := range Progress(s) {
			work = work || st.Status == StatusNeedsWork
		}
		var first Step
		for _, b := range beforeTheSix {
			if s.Why(b) != "" && !(b.ID == StoppedStep.ID && work) {
				first = b
				break
			}
		}
		if first.ID != "" && step.ID != first.ID || first.ID == "" && step.N == 0 && step.ID != "" {
			t.Errorf("%s: NextStep proposes %q, Why gives a reason first for %q (%q)", p.From, step.ID, first.ID, s.Why(first))
		}
	}
	for i, b := range beforeTheSix {
		if b.N != 0 || !proposed[b.ID] {
			t.Errorf("%s (N %d): proposed by no state", b.ID, b.N)
		}
		if i >= len(firstSteps) || firstSteps[i].Step != b {
			t.Errorf("step %d before the six: the table has %+v, want %s", i, firstSteps[min(i, len(firstSteps)-1)].Step, b.ID)
		}
		for name, v := range map[string]string{"Title": b.Title, "Goal": b.Goal, "When": b.When, "DoneWhen": b.DoneWhen,
			"StopWhen": b.StopWhen} {
			if v == "" {
				t.Errorf("step %s: %s is empty", b.ID, name)
			}
		}
	}
	if len(firstSteps) != len(beforeTheSix) {
		t.Errorf("%d steps before the six in the table, want %d", len(firstSteps), len(beforeTheSix))
	}
}
