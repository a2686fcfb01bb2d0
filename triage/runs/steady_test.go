package runs

import (
	"slices"
	"strings"
	"testing"
)

// A run's steady state travels in its environment (the probe reads the marker; meta.json keeps both, so a stored
// run is judged as it was run); a marker the tool cannot read, one of two groups, a negative warm-up are refused
// before the launch.
func TestSteadyStateInTheEnvironment(t *testing.T) {
	spec := Spec{Argv: []string{"python3", "t.py"}, WarmupSteps: OptionalSteps(5), StepMarker: `served request (\d+)`}
	_, env, err := Command(spec)
	if err != nil || !slices.Contains(env, `TORCHTRIAGE_STEP_MARKER=served request (\d+)`) || !slices.Contains(env, "TORCHTRIAGE_WARMUP_STEPS=5") {
		t.Fatalf("%v %v", env, err)
	}
	_, env, _ = Command(Spec{Argv: []string{"python3", "t.py"}})
	for _, kv := range env {
		if strings.HasPrefix(kv, "TORCHTRIAGE_STEP_MARKER=") || strings.HasPrefix(kv, "TORCHTRIAGE_WARMUP_STEPS=") {
			t.Errorf("neither given, yet %s", kv)
		}
	}
	for _, bad := range []Spec{{StepMarker: `(?=x)`}, {StepMarker: `(step|iter) (\d+)`}, {WarmupSteps: new(int)}} {
		if bad.WarmupSteps != nil {
			*bad.WarmupSteps = -1
		}
		if _, err := bad.Checked(); err == nil {
			t.Errorf("%+v: want an error", bad)
		}
	}
	if OptionalSteps(-1) != nil || *OptionalSteps(0) != 0 {
		t.Error("OptionalSteps: negative is not given, 0 is a warm-up of none")
	}
}
