package runs

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/playbooks"
)

func TestPresetsOrderAndContent(t *testing.T) {
	want := map[string]string{
		"breaks":      "graph_breaks,recompiles",
		"recompiles":  "recompiles_verbose,graph_breaks,dynamic",
		"guards":      "guards,recompiles_verbose",
		"cudagraphs":  "perf_hints,cudagraphs,graph_breaks,recompiles",
		"distributed": "graph_breaks,recompiles,ddp_graphs",
		"trace":       "graph_breaks,recompiles",
		"deep":        "+dynamo,recompiles",
		"eager":       "",
	}
	if got := PresetNames(); !slices.Equal(got, []string{"breaks", "recompiles", "guards", "cudagraphs", "distributed", "trace", "deep", "eager"}) {
		t.Fatalf("order %v", got)
	}
	for _, p := range Presets() {
		if got := strings.Join(p.Logs, ","); got != want[p.Name] {
			t.Errorf("%s logs %q, want %q", p.Name, got, want[p.Name])
		}
		if p.Purpose == "" || strings.Contains(p.Purpose, "\n") {
			t.Errorf("%s purpose %q is not one line", p.Name, p.Purpose)
		}
		if p.Trace != (p.Name == "distributed" || p.Name == "trace") {
			t.Errorf("%s Trace = %v", p.Name, p.Trace)
		}
	}
	if e, _ := PresetByName("eager"); e.Env["TORCHDYNAMO_DISABLE"] != "1" {
		t.Error("eager does not disable dynamo")
	}
	if d, _ := PresetByName("deep"); !strings.Contains(d.Note, "verbose") {
		t.Errorf("deep note %q", d.Note)
	}
	if p, ok := PresetByName(""); !ok || p.Name != "breaks" {
		t.Error(`"" is not the breaks preset`)
	}
	if _, ok := PresetByName("nope"); ok {
		t.Error("unknown preset found")
	}
	Presets()[0].Logs[0] = "mutated"
	if p, _ := PresetByName("breaks"); p.Logs[0] != "graph_breaks" {
		t.Error("Presets shares its slices")
	}
}

func TestLogSetToggle(t *testing.T) {
	s := NewLogSet([]string{"graph_breaks", "my.module"})
	if got := s.Enabled(); !slices.Equal(got, []string{"graph_breaks", "my.module"}) {
		t.Fatalf("enabled %v", got)
	}
	if !s.Toggle("recompiles") || s.Toggle("graph_breaks") {
		t.Error("toggle returned the wrong state")
	}
	if !s.Toggle("new_one") {
		t.Error("toggling an absent name should add it on")
	}
	if got := s.Enabled(); !slices.Equal(got, []string{"recompiles", "my.module", "new_one"}) {
		t.Errorf("enabled %v", got)
	}
	s.Set("recompiles", false)
	s.Set("guards", true)
	if got := s.Enabled(); !slices.Equal(got, []string{"guards", "my.module", "new_one"}) {
		t.Errorf("after Set: %v", got)
	}
	if e := s.Entries(); e[0].Name != CatalogLogNames[0] || len(e) != len(CatalogLogNames)+2 {
		t.Errorf("entries %v", e)
	}
}

func TestComposeTorchLogs(t *testing.T) {
	cases := []struct {
		names   []string
		version string
		want    string
		dropped []string
	}{
		{[]string{"+dynamo"}, "", "+dynamo,recompiles", nil},
		{[]string{"graph_breaks", "recompiles"}, "2.14", "graph_breaks,recompiles", nil},
		{[]string{"guards", "recompiles_verbose"}, "2.6", "guards,recompiles_verbose", nil},
		{[]string{" graph_breaks ", "graph_breaks", ""}, "", "graph_breaks,recompiles", nil},
		{[]string{"graph_breaks", "flex_gemm"}, "2.6.0+cu124", "graph_breaks,recompiles", []string{"flex_gemm"}},
		{[]string{"graph_breaks", "flex_gemm"}, "2.14.1", "graph_breaks,flex_gemm,recompiles", nil},
		{[]string{"graph_breaks", "nonexistent_thing"}, "2.99", "graph_breaks,nonexistent_thing,recompiles", nil},
		{[]string{"+graph_breaks", "-dynamo", "torch._dynamo.output_graph"}, "2.6", "+graph_breaks,-dynamo,torch._dynamo.output_graph,recompiles", nil},
		{[]string{"recompiles_verbose", "graph_breaks"}, "2.1", "graph_breaks,recompiles", []string{"recompiles_verbose"}},
		{[]string{"graph_breaks"}, "2.0", "", []string{"graph_breaks"}},
		{nil, "2.14", "", nil},
	}
	for _, c := range cases {
		got, dropped := ComposeTorchLogs(c.names, c.version)
		if got != c.want || !slices.Equal(dropped, c.dropped) {
			t.Errorf("ComposeTorchLogs(%q, %q) = %q, %v; want %q, %v", c.names, c.version, got, dropped, c.want, c.dropped)
		}
	}
}

func TestKnownLogName(t *testing.T) {
	cases := []struct {
		name, version string
		want          bool
	}{
		{"graph_breaks", "2.6", true}, {"+dynamo", "2.6", true}, {"-inductor", "2.14", true},
		{"flex_gemm", "2.6", false}, {"flex_gemm", "2.14", true}, {"side_effects", "2.6", false},
		{"torch._inductor.codecache", "2.3", true}, {"dynamo", "2.0", false},
		{"anything", "", true}, {"anything", "3.0", true}, {"", "2.6", false}, {"a,b", "", false},
	}
	for _, c := range cases {
		if got := KnownLogName(c.name, c.version); got != c.want {
			t.Errorf("KnownLogName(%q, %q) = %v", c.name, c.version, got)
		}
	}
	for minor := 1; minor <= 14; minor++ {
		v := fmt.Sprintf("2.%d", minor)
		for _, n := range []string{"graph_breaks", "recompiles", "guards", "dynamo"} {
			if !KnownLogName(n, v) {
				t.Errorf("%s unknown in %s", n, v)
			}
		}
	}
}

// The 2.6 and 2.14 tables are PyTorch's own lists from the real failures.
func TestLogNameTablesMatchRealTorch(t *testing.T) {
	for version, file := range map[string]string{
		"2.6":  "testdata/torch-2.6.unknown-torch-logs-name.log",
		"2.14": "testdata/torch-2.14.unknown-torch-logs-name.log",
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		_, valid, ok := ParseInvalidLogSettings(data)
		table, known := LogNamesFor(version)
		if !ok || !known {
			t.Fatalf("%s: parsed %v, table %v", version, ok, known)
		}
		slices.Sort(valid)
		slices.Sort(table)
		if !slices.Equal(valid, table) {
			t.Errorf("%s: table differs from torch's list\n torch: %v\n table: %v", version, valid, table)
		}
	}
}

func TestParseInvalidLogSettings(t *testing.T) {
	for file, want := range map[string][]string{
		"testdata/torch-2.6.unknown-torch-logs-name.log":  {"flex_gemm"},
		"testdata/torch-2.14.unknown-torch-logs-name.log": {"nonexistent_thing"},
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		unknown, valid, ok := ParseInvalidLogSettings(data)
		if !ok || !slices.Equal(unknown, want) || !slices.Contains(valid, "graph_breaks") {
			t.Errorf("%s: %v %d valid %v", file, unknown, len(valid), ok)
		}
		// As a torchrun rank prints it: every line prefixed.
		var ranked bytes.Buffer
		for _, line := range strings.Split(string(data), "\n") {
			ranked.WriteString("[default0]:[rank0]: " + line + "\n")
		}
		if u, v, ok := ParseInvalidLogSettings(ranked.Bytes()); !ok || !slices.Equal(u, want) || len(v) != len(valid) {
			t.Errorf("%s with rank prefixes: %v %d %v", file, u, len(v), ok)
		}
	}
	port, err := os.ReadFile("testdata/torch-2.6.torchrun-port-in-use.log")
	if err != nil {
		t.Fatal(err)
	}
	if u, v, ok := ParseInvalidLogSettings(port); ok || u != nil || v != nil {
		t.Errorf("port-in-use log parsed as invalid settings: %v %v", u, v)
	}
	mod := []byte("Invalid log settings: torch._nope, must be a comma separated list\nValid settings:\nall, dynamo\n")
	if u, _, ok := ParseInvalidLogSettings(mod); !ok || !slices.Equal(u, []string{"torch._nope"}) {
		t.Errorf("module-only setting: %v %v", u, ok)
	}
}

// Each checklist step names the TORCH_LOGS its preset sets (step 3 said "recompiles_verbose,guards,dynamic" of the
// recompiles preset, which sets recompiles_verbose,graph_breaks,dynamic).
func TestChecklistStepsNameTheirPresetsLogs(t *testing.T) {
	for _, st := range playbooks.Checklist() {
		p, ok := PresetByName(st.Preset)
		if !ok {
			t.Errorf("step %s: no preset %q", st.ID, st.Preset)
			continue
		}
		if len(p.Logs) > 0 && !strings.HasPrefix(st.TorchLogs, strings.Join(p.Logs, ",")) {
			t.Errorf("step %s: TORCH_LOGS %q, preset %s sets %s", st.ID, st.TorchLogs, p.Name, strings.Join(p.Logs, ","))
		}
		for k, v := range p.Env {
			if k != "TORCHDYNAMO_DISABLE" && !strings.Contains(st.TorchLogs, k+"="+v) {
				t.Errorf("step %s: %q leaves out %s=%s", st.ID, st.TorchLogs, k, v)
			}
		}
	}
}
