package playbooks

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestChecklistShape(t *testing.T) {
	steps := Checklist()
	wantIDs := []string{"baseline", "breaks", "recompiles", "cudagraphs", "ranks", "steady"}
	wantPresets := []string{"eager", "breaks", "recompiles", "cudagraphs", "distributed", "breaks"}
	if len(steps) != len(wantIDs) {
		t.Fatalf("%d steps, want %d", len(steps), len(wantIDs))
	}
	for i, st := range steps {
		if st.N != i+1 || st.ID != wantIDs[i] || st.Preset != wantPresets[i] {
			t.Errorf("step %d = %d/%s/%s, want %d/%s/%s", i, st.N, st.ID, st.Preset, i+1, wantIDs[i], wantPresets[i])
		}
		if !slices.Contains(Presets, st.Preset) {
			t.Errorf("step %s: unknown preset %q", st.ID, st.Preset)
		}
		for name, v := range map[string]string{"Title": st.Title, "Goal": st.Goal, "When": st.When,
			"DoneWhen": st.DoneWhen, "StopWhen": st.StopWhen, "TorchLogs": st.TorchLogs} {
			if v == "" {
				t.Errorf("step %s: %s is empty", st.ID, name)
			}
		}
	}
	steps[0].Title = "changed"
	if Checklist()[0].Title == "changed" {
		t.Error("Checklist returns shared data")
	}
}

func TestNextStep(t *testing.T) {
	// everything shown: the steps are done (ranks and CUDA graphs where they apply)
	clean := State{Ranks: 2, BaselineMeasured: true, BreaksLogged: true, RecompilesLogged: true, CudagraphsLogged: true,
		UsesCUDAGraphs: true, RanksAgree: true, SteadyRerun: true}
	all := []string{"baseline", "breaks", "recompiles", "cudagraphs", "ranks", "steady"}
	cases := []struct {
		name string
		mod  func(*State)
		want string
		done []string
	}{
		{"nothing known: nothing is done", func(s *State) { *s = State{} }, "baseline", nil},
		{"all shown", func(s *State) {}, "", all},
		{"unexpected breaks", func(s *State) { s.UnexpectedBreaks = 2 }, "breaks", []string{"baseline", "recompiles", "cudagraphs", "ranks", "steady"}},
		{"breaks not logged: not done, and ranks cannot be compared", func(s *State) { s.BreaksLogged = false }, "breaks",
			[]string{"baseline", "recompiles", "cudagraphs", "steady"}},
		{"unexpected recompiles", func(s *State) { s.UnexpectedRecompiles = 4 }, "recompiles", []string{"baseline", "breaks", "cudagraphs", "ranks", "steady"}},
		{"cudagraph issues", func(s *State) { s.CudagraphSkips = 2 }, "cudagraphs", []string{"baseline", "breaks", "recompiles", "ranks", "steady"}},
		{"CPU-only: cudagraphs not applicable, not done", func(s *State) { s.CPUOnly = true }, "", []string{"baseline", "breaks", "recompiles", "ranks", "steady"}},
		{"cudagraphs log off: not run", func(s *State) { s.CudagraphsLogged = false }, "cudagraphs", []string{"baseline", "breaks", "recompiles", "ranks", "steady"}},
		{"one process: ranks not applicable", func(s *State) { s.Ranks, s.RanksAgree = 1, false }, "", []string{"baseline", "breaks", "recompiles", "cudagraphs", "steady"}},
		{"ranks disagree", func(s *State) { s.RanksAgree = false }, "ranks", []string{"baseline", "breaks", "recompiles", "cudagraphs", "steady"}},
		{"no rerun yet", func(s *State) { s.SteadyRerun = false }, "steady", []string{"baseline", "breaks", "recompiles", "cudagraphs", "ranks"}},
		{"torch ran, breaks not logged: the breaks step first", func(s *State) { *s = State{NeedLogs: true} }, "breaks", nil},
		{"baseline inconclusive", func(s *State) { s.BaselineMeasured, s.BaselineWhy = false, "inconclusive: give --metric" }, "baseline",
			[]string{"breaks", "recompiles", "cudagraphs", "ranks", "steady"}},
	}
	for _, c := range cases {
		s := clean
		c.mod(&s)
		step, done := NextStep(s)
		if step.ID != c.want || !slices.Equal(done, c.done) {
			t.Errorf("%s: NextStep = %q, done %v; want %q, done %v", c.name, step.ID, done, c.want, c.done)
		}
		if c.want == "" && step != (Step{}) {
			t.Errorf("%s: finished checklist should return the zero Step, got %+v", c.name, step)
		}
	}
	for _, p := range Progress(State{Ranks: 1, CPUOnly: true}) {
		if p.Status == StatusDone || (p.Status != StatusNotApplicable && p.Status != StatusNotRun) || (p.Status != StatusDone && p.Why == "") {
			t.Errorf("a run that showed nothing: %s is %q (%s)", p.ID, p.Status, p.Why)
		}
	}
}

// A run whose evidence stops short (a process died, the tool stopped it, it is still going) ticks no step on the
// absence of findings: a run that died at its first collective may not have compiled what a step needs. Work it
// found is still work. When a process crashed, fixing that comes first, before any step (before: the g09a run with
// both ranks dead of an NCCL error showed "3 of 6 done" and proposed the eager baseline).
func TestCrashComesFirstAndProvesNothing(t *testing.T) {
	clean := State{Ranks: 2, BaselineMeasured: true, BreaksLogged: true, RecompilesLogged: true, CudagraphsLogged: true,
		UsesCUDAGraphs: true, RanksAgree: true, SteadyRerun: true}
	crash := "2 processes died of a runtime error: DistBackendError: NCCL error [dist-nccl-duplicate-gpu]"
	cases := []struct {
		name string
		mod  func(*State)
		want string
		done []string
	}{
		{"crashed", func(s *State) { s.Unfinished, s.Crash = "exited with code 1", crash }, "crash", []string{"baseline"}},
		{"crashed with breaks found: the crash first", func(s *State) {
			s.Unfinished, s.Crash, s.UnexpectedBreaks = "exited with code 1", crash, 2
		}, "crash", []string{"baseline"}},
		{"stopped by the tool: nothing is done, no crash to fix: let it finish", func(s *State) { s.Unfinished, s.StoppedByTool = "stopped by torchtriage (timed out)", true },
			"stopped", []string{"baseline"}},
		{"stopped by the tool with breaks found: that work first", func(s *State) {
			s.Unfinished, s.StoppedByTool, s.UnexpectedBreaks = "stopped by torchtriage (timed out)", true, 1
		}, "breaks", []string{"baseline"}},
		{"stopped with breaks found: that work stands", func(s *State) { s.Unfinished, s.UnexpectedBreaks = "still running", 1 },
			"breaks", []string{"baseline"}},
		{"a completed run whose earlier attempt crashed", func(s *State) { s.Crash = crash }, "crash", []string{"baseline", "breaks",
			"recompiles", "cudagraphs", "ranks", "steady"}},
	}
	for _, c := range cases {
		s := clean
		c.mod(&s)
		step, done := NextStep(s)
		if step.ID != c.want || !slices.Equal(done, c.done) {
			t.Errorf("%s: NextStep = %q, done %v; want %q, done %v", c.name, step.ID, done, c.want, c.done)
		}
		for _, p := range Progress(s) {
			if s.Unfinished != "" && p.ID != "baseline" && p.Status != StatusNeedsWork && (p.Status != StatusNotRun || !strings.Contains(p.Why, s.Unfinished)) {
				t.Errorf("%s: %s is %q (%s) on a run that did not finish", c.name, p.ID, p.Status, p.Why)
			}
		}
	}
	if step, _ := NextStep(State{Crash: crash}); step != CrashStep || step.N != 0 || step.Title == "" || step.DoneWhen == "" {
		t.Errorf("crash step %+v", step)
	}
}

// The CUDA-graph step names what needs work, with its count, and nothing it did not see: a run with skips only
// is not said to have partitions or re-recordings; a few re-recordings (warm-up) are no work at all.
func TestCudagraphStepNamesWhatItSaw(t *testing.T) {
	cases := []struct {
		s    State
		want string // the step's reason; "" when it is not "needs work"
	}{
		{State{CudagraphSkips: 2}, "2 CUDA-graph skips"},
		{State{CudagraphPartitions: 5}, "5 non-cudagraphable partitions"},
		{State{CudagraphRerecords: 7}, fmt.Sprintf("7 CUDA-graph re-recordings (more than %d)", RerecordsFew)},
		{State{CudagraphRerecords: RerecordsFew}, ""},
		{State{CudagraphSkips: 1, CudagraphPartitions: 3, CudagraphRerecords: 9},
			fmt.Sprintf("1 CUDA-graph skip, 3 non-cudagraphable partitions and 9 CUDA-graph re-recordings (more than %d)", RerecordsFew)},
	}
	for _, c := range cases {
		st := Progress(c.s)[3]
		if c.want == "" {
			if st.Status == StatusNeedsWork {
				t.Errorf("%+v: needs work (%q), want not", c.s, st.Why)
			}
			continue
		}
		if st.Status != StatusNeedsWork || st.Why != c.want {
			t.Errorf("%+v: %s %q, want needs work %q", c.s, st.Status, st.Why, c.want)
		}
	}
}

// A step not run says why in words the evidence supports: "not logged" where the run's TORCH_LOGS is known to
// leave the name out, "no sign … logged" for logs alone. r06's perf log (graph_breaks, recompiles and cudagraphs
// all on, nothing of them to print) read "graph breaks were not logged", "recompiles were not logged" and "the
// cudagraphs log was not on".
func TestProgressWhyOfLogsAlone(t *testing.T) {
	whys := func(s State) []string {
		var out []string
		for _, p := range Progress(s)[1:5] {
			out = append(out, p.Why)
		}
		return out
	}
	alone := whys(State{Ranks: 2})
	want := []string{"no sign graph breaks were logged", "no sign recompiles were logged", "no sign the cudagraphs log was on",
		"no sign graph breaks and recompiles per rank were logged"}
	if !slices.Equal(alone, want) {
		t.Errorf("logs alone: %q", alone)
	}
	run := whys(State{Ranks: 2, LogsKnown: true})
	want = []string{"graph breaks were not logged", "recompiles were not logged", "the cudagraphs log was not on",
		"graph breaks and recompiles per rank were not logged"}
	if !slices.Equal(run, want) {
		t.Errorf("a run: %q", run)
	}
}

// A graph break fullgraph=True refused is a compile error, not a logged break: the breaks step says so instead of
// "unexpected graph breaks" beside a report of "graph breaks 0" (exploratory TUI run on testdata/recorded
// dist-caught and caught-compile).
func TestBreaksStepNamesAFullgraphRefusal(t *testing.T) {
	s := State{Ranks: 1, LogsKnown: true, BreaksLogged: true, RecompilesLogged: true, UnexpectedBreaks: 1, FullgraphRefused: 1}
	p := Progress(s)[1]
	if p.Status != StatusNeedsWork || !strings.Contains(p.Why, "fullgraph") || strings.Contains(p.Why, "unexpected graph breaks") {
		t.Errorf("refused only: %+v", p)
	}
	s.UnexpectedBreaks = 3
	if p := Progress(s)[1]; !strings.Contains(p.Why, "unexpected graph breaks") || !strings.Contains(p.Why, "1 of them refused by fullgraph") {
		t.Errorf("mixed: %+v", p)
	}
}

// Counts are worded for their number: "2 processes", not "2 processs".
func TestChecklistPlural(t *testing.T) {
	if got := Plural(2, "process"); got != "2 processes" {
		t.Errorf("%q", got)
	}
}

// A run with no torch output did not run the breaks and recompiles steps for want of TORCH_LOGS: it never reached
// torch (an exploratory live run read "not run yet: graph breaks were not logged" of a run whose TORCH_LOGS had
// graph_breaks).
func TestStepsOfARunWithNoTorchOutput(t *testing.T) {
	s := State{Ranks: 1, LogsKnown: true, NoTorch: "the run printed no torch output at all"}
	for _, p := range Progress(s)[1:3] {
		if p.Status != StatusNotRun || strings.Contains(p.Why, "not logged") || !strings.Contains(p.Why, "no torch output") {
			t.Errorf("%s: %+v", p.ID, p)
		}
	}
}

// A rerun that exists but is not steady is work for the steady step, not "needs a rerun" (an exploratory live run:
// run 3 reran run 1's command and still compiled 9 graphs, and the step read "not run yet: needs a rerun").
func TestSteadyStepOfARerunThatIsNotSteady(t *testing.T) {
	s := State{Ranks: 1, LogsKnown: true, BreaksLogged: true, RecompilesLogged: true, Rerun: "run 3 reran run 1's command"}
	p := Progress(s)[5]
	if p.Status != StatusNeedsWork || !strings.Contains(p.Why, "run 3 reran run 1's command") || strings.Contains(p.Why, "needs a rerun") {
		t.Errorf("%+v", p)
	}
}
