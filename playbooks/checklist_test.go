package playbooks

import (
	"slices"
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
		{"cudagraph issues", func(s *State) { s.CudagraphIssues = 2 }, "cudagraphs", []string{"baseline", "breaks", "recompiles", "ranks", "steady"}},
		{"CPU-only: cudagraphs not applicable, not done", func(s *State) { s.CPUOnly = true }, "", []string{"baseline", "breaks", "recompiles", "ranks", "steady"}},
		{"cudagraphs log off: not run", func(s *State) { s.CudagraphsLogged = false }, "cudagraphs", []string{"baseline", "breaks", "recompiles", "ranks", "steady"}},
		{"one process: ranks not applicable", func(s *State) { s.Ranks, s.RanksAgree = 1, false }, "", []string{"baseline", "breaks", "recompiles", "cudagraphs", "steady"}},
		{"ranks disagree", func(s *State) { s.RanksAgree = false }, "ranks", []string{"baseline", "breaks", "recompiles", "cudagraphs", "steady"}},
		{"no rerun yet", func(s *State) { s.SteadyRerun = false }, "steady", []string{"baseline", "breaks", "recompiles", "cudagraphs", "ranks"}},
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
