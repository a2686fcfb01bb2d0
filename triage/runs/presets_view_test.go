package runs

import "testing"

// A preset's view shows the TORCH_LOGS value it sets (recompiles added where a log is on and neither recompiles
// nor recompiles_verbose is) and its environment, TORCH_TRACE's included.
func TestPresetViews(t *testing.T) {
	views := map[string]PresetView{}
	for _, v := range PresetViews() {
		views[v.Name] = v
	}
	if len(views) != len(Presets()) {
		t.Fatalf("%d views of %d presets", len(views), len(Presets()))
	}
	for name, want := range map[string]struct{ logs, env string }{
		"breaks": {"graph_breaks,recompiles", "-"},
		"guards": {"guards,recompiles_verbose", "-"},
		"deep":   {"+dynamo,recompiles", "-"},
		"trace":  {"graph_breaks,recompiles", "TORCH_TRACE=<run dir>/trace"},
		"eager":  {"", "TORCHDYNAMO_DISABLE=1"},
	} {
		if v := views[name]; v.TorchLogs != want.logs || v.EnvText() != want.env {
			t.Errorf("%s: TORCH_LOGS %q, env %q; want %q, %q", name, v.TorchLogs, v.EnvText(), want.logs, want.env)
		}
	}
	if env := (PresetView{Env: map[string]string{"B": "2", "A": "1"}}).EnvText(); env != "A=1 B=2" {
		t.Errorf("EnvText %q", env)
	}
}
