package runs

import "slices"

// Preset is a named set of TORCH_LOGS names and environment for one kind of
// question ("why does it break?", "why does it recompile?", ...).
type Preset struct {
	Name    string
	Purpose string // one line
	Note    string // caveat shown next to the preset; may be empty
	Logs    []string
	Env     map[string]string
	Trace   bool // set TORCH_TRACE=<run dir>/trace
}

// DefaultPreset is the preset used when a Spec names none.
const DefaultPreset = "breaks"

// Presets returns the built-in presets in display order. The result is a fresh
// copy; callers may modify it.
func Presets() []Preset {
	return []Preset{
		{
			Name:    "breaks",
			Purpose: "Graph breaks and recompiles: the first thing to look at.",
			Logs:    []string{"graph_breaks", "recompiles"},
		},
		{
			Name:    "recompiles",
			Purpose: "Why it recompiles: every failing guard, plus dynamic-shape decisions.",
			Logs:    []string{"recompiles_verbose", "graph_breaks", "dynamic"},
		},
		{
			Name:    "guards",
			Purpose: "The guards of every compiled frame and which ones fail.",
			Logs:    []string{"guards", "recompiles_verbose"},
		},
		{
			Name:    "cudagraphs",
			Purpose: "Why CUDA graphs are skipped or partitioned, with breaks and recompiles.",
			Note:    "Caches off: a cached graph prints no partitions (compile time is cold).",
			Logs:    []string{"perf_hints", "cudagraphs", "graph_breaks", "recompiles"},
			Env:     map[string]string{"TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"},
		},
		{
			Name:    "distributed",
			Purpose: "Per rank: breaks, recompiles, DDP splits, a TORCH_TRACE each, DETAIL's collective checks.",
			Note:    "DETAIL names each rank's collective in a hang (slower); trace/ holds a log per rank (tlparse --all-ranks-html).",
			Logs:    []string{"graph_breaks", "recompiles", "ddp_graphs"},
			Env:     map[string]string{"TORCH_DISTRIBUTED_DEBUG": "DETAIL"},
			Trace:   true,
		},
		{
			Name:    "trace",
			Purpose: "Structured TORCH_TRACE for tlparse, plus graph breaks and recompiles.",
			Note:    "Open the run's trace/ folder with tlparse.",
			Logs:    []string{"graph_breaks", "recompiles"},
			Trace:   true,
		},
		{
			Name:    "deep",
			Purpose: "Dynamo debug logging (+dynamo) with recompiles: everything Dynamo does.",
			Note:    "Small repros only: +dynamo is very verbose.",
			Logs:    []string{"+dynamo", "recompiles"},
		},
		{
			Name:    "eager",
			Purpose: "Eager baseline: torch.compile disabled (TORCHDYNAMO_DISABLE=1), no TORCH_LOGS.",
			Env:     map[string]string{"TORCHDYNAMO_DISABLE": "1"},
		},
	}
}

// PresetByName finds a built-in preset; "" means DefaultPreset.
func PresetByName(name string) (Preset, bool) {
	if name == "" {
		name = DefaultPreset
	}
	for _, p := range Presets() {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// PresetNames lists the preset names in display order.
func PresetNames() []string {
	var names []string
	for _, p := range Presets() {
		names = append(names, p.Name)
	}
	return names
}

// CatalogLogNames are the TORCH_LOGS names offered for toggling in a custom
// set, most useful first.
var CatalogLogNames = []string{
	"graph_breaks", "recompiles", "recompiles_verbose", "guards", "verbose_guards",
	"dynamic", "perf_hints", "cudagraphs", "ddp_graphs", "dynamo", "+dynamo",
	"aot_graphs", "graph_code", "output_code", "inductor", "distributed",
	"compiled_autograd",
}

// LogEntry is one name of a LogSet and whether it is on.
type LogEntry struct {
	Name string
	On   bool
}

// LogSet is an ordered list of TORCH_LOGS names, each on or off: the custom
// set the user edits by toggling names.
type LogSet struct {
	entries []LogEntry
}

// NewLogSet returns CatalogLogNames with the given names switched on; names
// not in the catalog are appended (on) in their order.
func NewLogSet(on []string) *LogSet {
	s := &LogSet{}
	for _, n := range CatalogLogNames {
		s.entries = append(s.entries, LogEntry{Name: n, On: slices.Contains(on, n)})
	}
	for _, n := range on {
		if s.index(n) < 0 && n != "" {
			s.entries = append(s.entries, LogEntry{Name: n, On: true})
		}
	}
	return s
}

func (s *LogSet) index(name string) int {
	for i, e := range s.entries {
		if e.Name == name {
			return i
		}
	}
	return -1
}

// Toggle flips a name and returns its new state; an unknown name is added, on.
func (s *LogSet) Toggle(name string) bool {
	if name == "" {
		return false
	}
	i := s.index(name)
	if i < 0 {
		s.entries = append(s.entries, LogEntry{Name: name, On: true})
		return true
	}
	s.entries[i].On = !s.entries[i].On
	return s.entries[i].On
}

// Set switches a name on or off, adding it when absent.
func (s *LogSet) Set(name string, on bool) {
	if s.Toggle(name) != on {
		s.Toggle(name)
	}
}

// Entries returns a copy of the names in order with their state.
func (s *LogSet) Entries() []LogEntry { return slices.Clone(s.entries) }

// Enabled returns the names that are on, in order.
func (s *LogSet) Enabled() []string {
	var out []string
	for _, e := range s.entries {
		if e.On {
			out = append(out, e.Name)
		}
	}
	return out
}
