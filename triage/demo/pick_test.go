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
