package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// A disk found full at the end of a run (the repro's own writes failed): the run names the path and ENOSPC,
// in its meta and once as an error event (the TUI's banner). The free space is injected; cli's
// TestCheckOnAFullDisk fills a real tmpfs.
func TestDiskFullAtTheEndIsNamed(t *testing.T) {
	old := freeSpace
	freeSpace = func(string) (uint64, error) { return 0, nil }
	t.Cleanup(func() { freeSpace = old })
	rec := &recorder{}
	r, err := Start(context.Background(), newStore(t), runs.Spec{Argv: []string{"true"}, Preset: "eager", Stall: -1}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Wait(); !strings.Contains(m.DiskFull, "no space left on device (ENOSPC)") || !strings.Contains(m.DiskFull, r.Dir) {
		t.Errorf("DiskFull %q, want ENOSPC in %s", m.DiskFull, r.Dir)
	}
	said := 0
	for _, e := range rec.all() {
		if e.Kind == EventError && strings.HasPrefix(e.Err.Error(), "disk full: no space left on device (ENOSPC) writing "+r.Dir) {
			said++
		}
	}
	if said != 1 {
		t.Errorf("%d disk-full error events, want 1; events %v", said, rec.kinds(r.ID))
	}
}
