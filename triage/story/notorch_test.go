package story

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/text"
)

// A run that printed no torch output at all counted nothing: the log says so instead of "0 graph breaks", its
// table row has no counts, and it is not compared with the run before (whose breaks did not get "fixed").
func TestRunWithoutTorchOutputCountsNothing(t *testing.T) {
	store := t.TempDir()
	code := 0
	argv := []string{"python", "repro.py"}
	storyRun(t, store, runs.Meta{ID: 1, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: argv,
		State: runs.StateExited, ExitCode: &code}, nil, "torch-2.14/gb_recompile.triage.log")
	storyRun(t, store, runs.Meta{ID: 2, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: argv,
		State: runs.StateExited, ExitCode: &code}, nil, "-")
	s, err := Build(store)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Runs[1]
	if r.Logged.Torch || !s.Runs[0].Logged.Torch {
		t.Errorf("logged.torch: run 1 %v, run 2 %v", s.Runs[0].Logged.Torch, r.Logged.Torch)
	}
	if d := r.Delta; d != nil && (len(d.Fixed) > 0 || len(d.Changed) > 0) {
		t.Errorf("a run without torch output compared as fixing things: %+v", d)
	}
	var txt, md, js bytes.Buffer
	WriteText(&txt, s, text.Options{Width: 200})
	WriteMarkdown(&md, s)
	if err := WriteJSON(&js, s); err != nil {
		t.Fatal(err)
	}
	run2 := txt.String()[strings.Index(txt.String(), "Run 2 "):]
	if strings.Contains(run2, "0 graph break") || !strings.Contains(run2, "no torch output: nothing counted") {
		t.Errorf("log text of run 2:\n%s", run2)
	}
	for _, l := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(l, "| 2 |") && !strings.Contains(l, "| — | — | — | — | — |") {
			t.Errorf("markdown row of run 2: %s", l)
		}
	}
	var back struct {
		Runs []struct {
			Logged map[string]any `json:"logged"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Runs) != 2 || back.Runs[1].Logged["torch"] != false {
		t.Errorf("JSON logged of run 2: %v %+v", err, back)
	}
}
