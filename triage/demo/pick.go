package demo

import (
	"regexp"
	"strings"
	"sync"
)

// Presets PickRecording returns. The names match the fixtures' presets.
const (
	PresetTriage      = "triage"        // graph_breaks,recompiles
	PresetVerbose     = "verbose"       // recompiles_verbose,graph_breaks
	PresetGuards      = "guards"        // guards,recompiles
	PresetPerf        = "perf"          // perf_hints,cudagraphs,graph_breaks,recompiles
	PresetDynamoDebug = "dynamo_debug"  // +dynamo,recompiles
	PresetNoLogs      = "no_torch_logs" // TORCH_LOGS empty or unset
	PresetEager       = "eager"         // TORCHDYNAMO_DISABLE=1: nothing compiles
	PresetInvalid     = "invalid"       // a TORCH_LOGS the recorded torch rejects at import
	presetWithTrace   = "withtrace"
)

const failureFile = "recordings/failures/torch-2.14.unknown-torch-logs-name.log"

// The TORCH_LOGS of the recorded failure, as it appears in its message.
const recordedBadSetting = "graph_breaks,nonexistent_thing"

// PickRecording chooses the recording a real torch 2.14 run would resemble
// for this environment. An invalid TORCH_LOGS wins (torch dies at import,
// whatever else is set); then TORCHDYNAMO_DISABLE=1 gives eager; an empty
// TORCH_LOGS gives no_torch_logs; otherwise the first match of +dynamo/+all
// (dynamo_debug), guards/verbose_guards (guards), perf_hints/cudagraphs
// (perf), recompiles_verbose (verbose); anything else, graph_breaks and
// recompiles included, gives triage, the best available recording.
func PickRecording(torchLogs string, dynamoDisable bool) string {
	if invalidTorchLogs(torchLogs) {
		return PresetInvalid
	}
	if dynamoDisable {
		return PresetEager
	}
	if torchLogs == "" {
		return PresetNoLogs
	}
	has := map[string]bool{}
	for _, name := range strings.Split(whitespace.ReplaceAllString(torchLogs, ""), ",") {
		has[name] = true
		has[strings.NewReplacer("+", "", "-", "").Replace(name)] = true
	}
	switch {
	case has["+dynamo"] || has["+all"]:
		return PresetDynamoDebug
	case has["guards"] || has["verbose_guards"]:
		return PresetGuards
	case has["perf_hints"] || has["cudagraphs"]:
		return PresetPerf
	case has["recompiles_verbose"]:
		return PresetVerbose
	}
	return PresetTriage
}

var (
	// torch/_logging/_internal.py _gen_settings_regex, matched in full.
	settingsSyntax = regexp.MustCompile(`^((\+|-)?[\w.]+,\s*)*(\+|-)?[\w.]+$`)
	whitespace     = regexp.MustCompile(`\s+`)
	moduleName     = regexp.MustCompile(`^torch(\.[A-Za-z_]\w*)+$`)

	validOnce  sync.Once
	validNames map[string]bool
)

// invalidTorchLogs mirrors torch 2.14's check: the syntax, then every name
// (without +/-) must be a registered name, taken from the "Valid settings"
// list of the recorded failure, or an importable module; the demo accepts
// dotted torch module names (torch._dynamo) as importable and nothing else.
func invalidTorchLogs(s string) bool {
	if s == "" {
		return false
	}
	if !settingsSyntax.MatchString(s) {
		return true
	}
	valid := validSettings()
	for _, name := range strings.Split(whitespace.ReplaceAllString(s, ""), ",") {
		clean := strings.NewReplacer("+", "", "-", "").Replace(name)
		if !valid[clean] && !moduleName.MatchString(clean) {
			return true
		}
	}
	return false
}

func validSettings() map[string]bool {
	validOnce.Do(func() {
		validNames = map[string]bool{}
		data, err := recordings.ReadFile(failureFile)
		if err != nil {
			return
		}
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			if l == "Valid settings:" && i+1 < len(lines) {
				for _, name := range strings.Split(lines[i+1], ",") {
					validNames[strings.TrimSpace(name)] = true
				}
			}
		}
	})
	return validNames
}

// failureOutput is the recorded invalid-settings failure with the recorded
// TORCH_LOGS value replaced by this one, as torch would print it.
func failureOutput(torchLogs string) []byte {
	data, err := recordings.ReadFile(failureFile)
	if err != nil {
		return []byte("torchtriage demo: the recorded failure is missing: " + err.Error() + "\n")
	}
	return []byte(strings.Replace(string(data), "Invalid log settings: "+recordedBadSetting+",",
		"Invalid log settings: "+torchLogs+",", 1))
}
