package report

import (
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// Logged says which kinds a TORCH_LOGS value makes PyTorch print (torch-log-formats.md §1): limit hits and fatal
// errors always print; breaks need graph_breaks or +dynamo; recompile records need recompiles or
// recompiles_verbose. CUDA-graph skips all come from one W-level emitter: from 2.11 under the cudagraphs artifact,
// which is on by default, so they print under any TORCH_LOGS (gpu-cuda-graphs-2.11.md §2: g02 and g13b show their
// skip under every preset, no TORCH_LOGS included; 2.14 the same, torch-log-formats.md §6); 2.6 used perf_hints,
// off by default, so they need perf_hints or cudagraphs there — and, not documented, for 2.7–2.10 and an unknown
// version too. A count of a kind that was not logged is 0 and means nothing.
type Logged struct {
	GraphBreaks    bool `json:"graph_breaks"`
	Recompiles     bool `json:"recompiles"`
	CudagraphSkips bool `json:"cudagraph_skips"`
}

// LoggedBy reads a TORCH_LOGS value ("graph_breaks,recompiles"; "" for none) for a torch version ("" unknown).
func LoggedBy(torchLogs, torchVersion string) Logged {
	names := LogNames(torchLogs)
	has := func(n string) bool { return slices.Contains(names, n) }
	all := has("all")
	return Logged{
		GraphBreaks:    all || has("graph_breaks") || has("+dynamo"),
		Recompiles:     all || has("recompiles") || has("recompiles_verbose"),
		CudagraphSkips: all || has("cudagraphs") || has("perf_hints") || logparse.TorchVersionAtLeast(torchVersion, 2, 11),
	}
}

// SameLogNames reports two TORCH_LOGS values with the same names in any order.
func SameLogNames(a, b string) bool {
	x, y := LogNames(a), LogNames(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// LogNames splits a TORCH_LOGS value into its names, without "+" except on "+dynamo" (whose level matters).
func LogNames(torchLogs string) []string {
	var out []string
	for _, n := range strings.Split(torchLogs, ",") {
		n = strings.TrimSpace(n)
		if n != "+dynamo" {
			n = strings.TrimLeft(n, "+-")
		}
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
