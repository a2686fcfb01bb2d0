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
	clean := State{Ranks: 1, HasBaseline: true, SteadyRerun: true, RanksAgree: true}
	cases := []struct {
		name string
		mod  func(*State)
		want string
		done []string
	}{
		{"nothing known", func(s *State) { *s = State{} }, "baseline", nil},
		{"unexpected breaks", func(s *State) { s.Breaks, s.UnexpectedBreaks = 3, 2 }, "breaks", []string{"baseline"}},
		{"only expected breaks", func(s *State) { s.Breaks = 4 }, "", []string{"baseline", "breaks", "recompiles", "cudagraphs", "ranks", "steady"}},
		{"unexpected recompiles", func(s *State) { s.Recompiles, s.UnexpectedRecompiles = 5, 4 }, "recompiles", []string{"baseline", "breaks"}},
		{"breaks before recompiles", func(s *State) { s.UnexpectedBreaks, s.UnexpectedRecompiles = 1, 1 }, "breaks", []string{"baseline"}},
		{"cudagraph skips", func(s *State) { s.CudagraphSkips = 2 }, "cudagraphs", []string{"baseline", "breaks", "recompiles"}},
		{"reduce-overhead, no skips", func(s *State) { s.ReduceOverhead = true }, "", []string{"baseline", "breaks", "recompiles", "cudagraphs", "ranks", "steady"}},
		{"ranks disagree", func(s *State) { s.Ranks, s.RanksAgree = 2, false }, "ranks", []string{"baseline", "breaks", "recompiles", "cudagraphs"}},
		{"one rank, agree unset", func(s *State) { s.RanksAgree = false }, "", []string{"baseline", "breaks", "recompiles", "cudagraphs", "ranks", "steady"}},
		{"not steady yet", func(s *State) { s.SteadyRerun = false }, "steady", []string{"baseline", "breaks", "recompiles", "cudagraphs", "ranks"}},
		{"negative counts", func(s *State) { s.UnexpectedBreaks, s.CudagraphSkips = -1, -3 }, "", []string{"baseline", "breaks", "recompiles", "cudagraphs", "ranks", "steady"}},
		{"baseline missing wins", func(s *State) { s.HasBaseline, s.UnexpectedBreaks = false, 9 }, "baseline", nil},
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
}
