package demo

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed recordings/torch-2.14 recordings/failures
var recordings embed.FS

const recordedDir = "recordings/torch-2.14"

// Scenario is one replayable recording set.
type Scenario struct {
	Name        string
	Description string
	Ranks       int      // processes in the recorded run (2 = torchrun --nproc-per-node 2)
	Presets     []string // the presets recorded for it, sorted
	files       map[string]string
	tracePreset string // the preset whose run also wrote TORCH_TRACE files
}

// DefaultScenario is replayed when no --scenario is given.
const DefaultScenario = "gb_recompile"

var scenarios = []Scenario{
	{
		Name: "gb_recompile", Ranks: 1,
		Description: "one process: print, Tensor.item() and nonzero graph breaks, recompiles on shape, float and string changes, then the recompile limit (3) is hit",
		files: map[string]string{
			PresetTriage: "gb_recompile.triage.log", PresetVerbose: "gb_recompile.recompiles_verbose.log",
			PresetDynamoDebug: "gb_recompile.plus_dynamo.log", PresetNoLogs: "gb_recompile.no_torch_logs.log",
			presetWithTrace: "gb_recompile.withtrace.log",
		},
		tracePreset: PresetNoLogs,
	},
	distScenario("r05_dist_c10d", "2 ranks (torchrun, gloo): a c10d all_reduce and a print only rank 0 makes — rank 0 has an extra graph break and an extra recompile"),
	distScenario("r06_dist_funcol", "2 ranks (torchrun, gloo): the fix — functional collectives, no graph breaks, no recompiles"),
	{
		Name: "r12_limit_str", Ranks: 1,
		Description: "one process: a string argument is specialised on every call until the recompile limit (8) is hit",
		files:       standardFiles("r12_limit_str"), tracePreset: PresetTriage,
	},
}

func distScenario(name, description string) Scenario {
	return Scenario{Name: name, Ranks: 2, Description: description, files: standardFiles(name), tracePreset: PresetTriage}
}

// standardFiles: the presets of the fixtures' r* repros (see their README).
func standardFiles(name string) map[string]string {
	files := map[string]string{}
	for _, p := range []string{PresetTriage, PresetVerbose, PresetGuards, PresetPerf, PresetDynamoDebug, presetWithTrace} {
		files[p] = name + "." + p + ".log"
	}
	return files
}

func init() {
	for i := range scenarios {
		for p := range scenarios[i].files {
			if p != presetWithTrace {
				scenarios[i].Presets = append(scenarios[i].Presets, p)
			}
		}
		sort.Strings(scenarios[i].Presets)
	}
}

// Scenarios lists the replayable scenarios, the default first.
func Scenarios() []Scenario {
	out := make([]Scenario, len(scenarios))
	copy(out, scenarios)
	for i := range out {
		out[i].Presets = append([]string(nil), out[i].Presets...)
	}
	return out
}

func findScenario(name string) (Scenario, error) {
	var names []string
	for _, s := range scenarios {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return Scenario{}, fmt.Errorf("unknown scenario %q (have: %s)", name, strings.Join(names, ", "))
}

// toolPresets names the run presets whose TORCH_LOGS the scenario's recordings show (PickRecording's mapping),
// eager always (the user's own output).
func (s Scenario) toolPresets() []string {
	names := map[string]string{PresetTriage: "breaks", PresetVerbose: "recompiles", PresetGuards: "guards",
		PresetPerf: "cudagraphs", PresetDynamoDebug: "deep"}
	var out []string
	for _, p := range s.Presets {
		if n, ok := names[p]; ok {
			out = append(out, n)
		}
	}
	return append(out, "eager")
}

// recording is what one replay plays: a recorded file, how to filter it and
// how fast to play it relative to the recording.
type recording struct {
	file  string
	label string // shown in the banner
	logs  string // the TORCH_LOGS the recorded run had
	keep  func(line) bool
	pace  float64 // 1 = recorded timing; eager runs faster
}

// recordingFor resolves a preset from PickRecording to the scenario's files
// (ok false for a preset it has no recording of: another's records would show
// what that run does not print); no TORCH_LOGS without a recorded
// no_torch_logs run is the triage run without its debug/info Python log lines
// (the lines TORCH_LOGS added; warnings print regardless); eager is the user's
// own prints from the triage run, played ten times faster.
func (s Scenario) recordingFor(preset string, trace bool) (recording, bool) {
	all := func(line) bool { return true }
	if trace && preset == s.tracePreset {
		return recording{file: s.files[presetWithTrace], label: "withtrace", logs: recordedLogs[s.tracePreset], keep: all, pace: 1}, true
	}
	switch preset {
	case PresetEager:
		return recording{file: s.files[PresetTriage], label: "eager: the user's output of triage", keep: line.plain, pace: 0.1}, true
	case PresetNoLogs:
		if _, ok := s.files[PresetNoLogs]; !ok {
			return recording{file: s.files[PresetTriage], label: "no_torch_logs: triage without its debug/info lines", keep: line.notDebug, pace: 1}, true
		}
	}
	file, ok := s.files[preset]
	if !ok {
		return recording{}, false
	}
	label := strings.TrimSuffix(strings.TrimPrefix(file, s.Name+"."), ".log")
	logs, named := recordedLogs[label] // the file's own name first: gb_recompile's recompiles_verbose, plus_dynamo
	if !named {
		logs = recordedLogs[preset]
	}
	return recording{file: file, label: label, logs: logs, keep: all, pace: 1}, true
}

// recordedLogs is the TORCH_LOGS each recording was made with, by its preset (the fixtures' README table) or,
// where a scenario's file says otherwise, by its file's name: gb_recompile's recompiles_verbose and plus_dynamo
// runs set that one name alone (no graph_breaks, no recompiles).
var recordedLogs = map[string]string{
	PresetTriage: "graph_breaks,recompiles", PresetVerbose: "recompiles_verbose,graph_breaks",
	PresetGuards: "guards,recompiles", PresetPerf: "perf_hints,cudagraphs,graph_breaks,recompiles",
	PresetDynamoDebug: "+dynamo,recompiles", PresetNoLogs: "",
	"recompiles_verbose": "recompiles_verbose", "plus_dynamo": "+dynamo",
}

// RecordedTorchLogs is the TORCH_LOGS of the recording that a replay of scenario with the environment env plays
// (the one the demo's repro picks from the same variables): what the replayed run had, which the run states.
// ok is false where the environment's own value stands: eager (nothing compiles, the user's output alone), a
// TORCH_LOGS torch rejects, or a scenario or preset with no recording.
func RecordedTorchLogs(scenario string, env []string) (string, bool) {
	get := func(key string) string {
		v := ""
		for _, kv := range env {
			if k, val, _ := strings.Cut(kv, "="); k == key {
				v = val // the last one counts, as in a process's environment built by appending
			}
		}
		return v
	}
	scn, err := findScenario(scenario)
	if err != nil {
		return "", false
	}
	preset := PickRecording(get("TORCH_LOGS"), get("TORCHDYNAMO_DISABLE") == "1")
	if preset == PresetInvalid || preset == PresetEager {
		return "", false
	}
	rec, ok := scn.recordingFor(preset, get("TORCH_TRACE") != "")
	return rec.logs, ok
}

func readRecording(name string) ([]byte, error) {
	return recordings.ReadFile(path.Join(recordedDir, name))
}

// traceFiles returns the scenario's recorded TORCH_TRACE files by base name.
func (s Scenario) traceFiles() (map[string][]byte, error) {
	dir := path.Join(recordedDir, s.Name+".trace")
	entries, err := fs.ReadDir(recordings, dir)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, e := range entries {
		data, err := recordings.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = data
	}
	return files, nil
}
