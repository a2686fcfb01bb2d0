package tui

import (
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// The cudagraphs preset, chosen in the preset bar and launched unchanged, is the preset: not "custom", and its
// TORCH_LOGS in the preset's order, as check --preset cudagraphs sets them (before: run dirs NNNN-custom and
// TORCH_LOGS graph_breaks,recompiles,perf_hints,cudagraphs). Every preset, the same.
func TestPresetBarLaunchesThePreset(t *testing.T) {
	m := liveModel(t, 120, 32)
	for _, p := range runs.Presets() {
		if !m.pre.choose(p.Name) {
			t.Fatalf("choose %s", p.Name)
		}
		spec := m.launchSpec()
		if spec.Preset != p.Name || spec.Logs != nil {
			t.Errorf("preset %s: spec preset %q logs %v; want the preset's own", p.Name, spec.Preset, spec.Logs)
		}
	}
}
