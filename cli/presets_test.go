package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

func TestCmdPresets(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Run([]string{"presets"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{"NAME", "breaks", "graph_breaks,recompiles", "TORCHDYNAMO_DISABLE=1", "TORCH_TRACE=<run dir>/trace", "+dynamo,recompiles"} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
	out.Reset()
	if code := Run([]string{"presets", "--format", "json"}, nil, &out, &errb); code != 0 {
		t.Fatalf("json exit %d", code)
	}
	var views []runs.PresetView
	if err := json.Unmarshal(out.Bytes(), &views); err != nil || len(views) != 8 || views[2].TorchLogs != "guards,recompiles_verbose" {
		t.Errorf("json: %v %+v", err, views)
	}
	if code := Run([]string{"presets", "--format", "yaml"}, nil, &out, &errb); code != 2 {
		t.Errorf("bad format exit %d", code)
	}
}
