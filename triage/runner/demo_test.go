package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// A run launched by `torchtriage demo` says so in its meta.json (the scenario it replays).
func TestDemoRunIsMarkedInMeta(t *testing.T) {
	t.Parallel()
	store := newStore(t)
	r, err := Start(context.Background(), store, runs.Spec{Argv: []string{"sh", testdata(t, "echo.sh")}, Demo: "r05_dist_c10d"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Wait()
	disk, err := runs.LoadRun(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if disk.Demo != "r05_dist_c10d" {
		t.Errorf("meta.json demo %q", disk.Demo)
	}
	plain, err := Start(context.Background(), store, runs.Spec{Argv: []string{"sh", testdata(t, "echo.sh")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := plain.Wait(); m.Demo != "" {
		t.Errorf("a user's run is marked demo %q", m.Demo)
	}
}

// A replay is given, and its meta.json states, the TORCH_LOGS its recording had (Spec.RecordedLogs), not the
// preset's: the demo's recompiles preset replays a recording made without graph_breaks, and its run said
// graph_breaks was on.
func TestReplayStatesItsRecordingsTorchLogs(t *testing.T) {
	t.Parallel()
	store := newStore(t)
	var asked string
	spec := runs.Spec{Argv: []string{"sh", "-c", `echo "logs=$TORCH_LOGS"`}, Preset: "recompiles", Demo: "gb_recompile",
		RecordedLogs: func(env []string) (string, bool) {
			asked = envValue(env, "TORCH_LOGS")
			return "recompiles_verbose", true
		}}
	r, err := Start(context.Background(), store, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Wait()
	out, _ := os.ReadFile(filepath.Join(r.Dir, "stdout.log"))
	if m.TorchLogs != "recompiles_verbose" || m.Env["TORCH_LOGS"] != "recompiles_verbose" || !strings.Contains(string(out), "logs=recompiles_verbose\n") {
		t.Errorf("meta TORCH_LOGS %q, env %q, the process saw %q", m.TorchLogs, m.Env["TORCH_LOGS"], out)
	}
	if !strings.Contains(asked, "recompiles_verbose") || !strings.Contains(asked, "graph_breaks") {
		t.Errorf("the hook was given TORCH_LOGS %q, want the preset's", asked)
	}
}
