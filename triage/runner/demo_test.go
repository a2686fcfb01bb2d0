package runner

import (
	"context"
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
