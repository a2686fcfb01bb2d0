package demo

import (
	"reflect"
	"strings"
	"testing"
)

func TestPickRecording(t *testing.T) {
	cases := []struct {
		logs    string
		disable bool
		want    string
	}{
		{"graph_breaks,recompiles", false, PresetTriage},
		{"graph_breaks, recompiles", false, PresetTriage},
		{"recompiles_verbose,graph_breaks", false, PresetVerbose},
		{"guards,recompiles", false, PresetGuards},
		{"+verbose_guards", false, PresetGuards},
		{"perf_hints,cudagraphs,graph_breaks,recompiles", false, PresetPerf},
		{"cudagraphs", false, PresetPerf},
		{"+dynamo,recompiles", false, PresetDynamoDebug},
		{"+dynamo,guards", false, PresetDynamoDebug},
		{"dynamo", false, PresetTriage}, // valid, not recorded: best available
		{"output_code,-inductor", false, PresetTriage},
		{"torch._dynamo,graph_breaks", false, PresetTriage}, // a module name is valid
		{"", false, PresetNoLogs},
		{"", true, PresetEager},
		{"graph_breaks,recompiles", true, PresetEager},
		{"graph_breaks,nonexistent_thing", false, PresetInvalid},
		{"graph_breaks,nonexistent_thing", true, PresetInvalid}, // torch dies at import either way
		{"graph_breaks;recompiles", false, PresetInvalid},       // not a comma list
		{" graph_breaks", false, PresetInvalid},                 // torch's regex rejects leading space
		{"recompiles,", false, PresetInvalid},
		{"help", false, PresetInvalid},
	}
	for _, c := range cases {
		if got := PickRecording(c.logs, c.disable); got != c.want {
			t.Errorf("PickRecording(%q, %v) = %q, want %q", c.logs, c.disable, got, c.want)
		}
	}
}

func TestValidSettingsComeFromTheRecordedFailure(t *testing.T) {
	valid := validSettings()
	for _, name := range []string{"all", "graph_breaks", "recompiles", "recompiles_verbose", "guards",
		"perf_hints", "cudagraphs", "dynamo", "inductor", "verbose_guards", "output_code"} {
		if !valid[name] {
			t.Errorf("%q missing from the 2.14 valid list", name)
		}
	}
	if len(valid) != 74 || valid["nonexistent_thing"] { // 74 names in the recorded list
		t.Errorf("valid list looks wrong: %d names", len(valid))
	}
}

func TestScenarios(t *testing.T) {
	got := Scenarios()
	var names []string
	ranks := map[string]int{}
	for _, s := range got {
		names = append(names, s.Name)
		ranks[s.Name] = s.Ranks
		if s.Description == "" {
			t.Errorf("%s has no description", s.Name)
		}
		for p, f := range s.files {
			if _, err := readRecording(f); err != nil {
				t.Errorf("%s %s: %v", s.Name, p, err)
			}
		}
		if files, err := s.traceFiles(); err != nil || len(files) != s.Ranks {
			t.Errorf("%s: want one trace file per rank, got %d (%v)", s.Name, len(files), err)
		}
	}
	if strings.Join(names, " ") != "gb_recompile r05_dist_c10d r06_dist_funcol r12_limit_str" || names[0] != DefaultScenario {
		t.Errorf("scenarios %v", names)
	}
	if !reflect.DeepEqual(ranks, map[string]int{"gb_recompile": 1, "r05_dist_c10d": 2, "r06_dist_funcol": 2, "r12_limit_str": 1}) {
		t.Errorf("ranks %v", ranks)
	}
	if !reflect.DeepEqual(got[0].Presets, []string{PresetDynamoDebug, PresetNoLogs, PresetTriage, PresetVerbose}) {
		t.Errorf("gb_recompile presets %v", got[0].Presets)
	}
	got[0].Presets[0] = "changed"
	if Scenarios()[0].Presets[0] == "changed" {
		t.Error("Scenarios must return copies")
	}
}

// The TORCH_LOGS a replay states is its recording's: gb_recompile's recompiles run was recorded with
// recompiles_verbose alone, so a replay under the recompiles preset (recompiles_verbose,graph_breaks) had no
// graph_breaks; and the recording that value picks is the one played, for every scenario and preset.
func TestRecordedTorchLogs(t *testing.T) {
	if got, ok := RecordedTorchLogs("gb_recompile", []string{"TORCH_LOGS=recompiles_verbose,graph_breaks"}); !ok || got != "recompiles_verbose" {
		t.Errorf("gb_recompile, recompiles preset: %q %v", got, ok)
	}
	if got, ok := RecordedTorchLogs("gb_recompile", []string{"TORCH_LOGS=+dynamo,recompiles"}); !ok || got != "+dynamo" {
		t.Errorf("gb_recompile, deep preset: %q %v", got, ok)
	}
	if got, ok := RecordedTorchLogs("r05_dist_c10d", []string{"TORCH_LOGS=recompiles_verbose,graph_breaks"}); !ok || got != "recompiles_verbose,graph_breaks" {
		t.Errorf("r05, recompiles preset: %q %v", got, ok)
	}
	if _, ok := RecordedTorchLogs("gb_recompile", []string{"TORCH_LOGS=graph_breaks", "TORCHDYNAMO_DISABLE=1"}); ok {
		t.Error("eager: the environment's TORCH_LOGS stands")
	}
	for _, s := range Scenarios() {
		for _, logs := range []string{"graph_breaks,recompiles", "recompiles_verbose,graph_breaks", "guards,recompiles",
			"perf_hints,cudagraphs,graph_breaks,recompiles", "+dynamo,recompiles", ""} {
			for _, trace := range []bool{false, true} {
				env := []string{"TORCH_LOGS=" + logs}
				if trace {
					env = append(env, "TORCH_TRACE=/t")
				}
				got, ok := RecordedTorchLogs(s.Name, env)
				if !ok {
					continue
				}
				want, _ := s.recordingFor(PickRecording(logs, false), trace)
				played, _ := s.recordingFor(PickRecording(got, false), trace)
				if played.file != want.file {
					t.Errorf("%s %q trace %v: states %q, which plays %s, not %s", s.Name, logs, trace, got, played.file, want.file)
				}
			}
		}
	}
}
