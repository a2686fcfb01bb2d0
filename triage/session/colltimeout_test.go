package session

import (
	"errors"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// --collective-timeout is applied by the probe: without it (--no-probe) the launch is refused, never run silently
// without the timeout the user asked for.
func TestCollectiveTimeoutNeedsTheProbe(t *testing.T) {
	store, err := runs.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	spec := runs.Spec{Argv: []string{"true"}, CollectiveTimeout: time.Minute}
	if _, _, err := RunToEnd(store, spec, false, nil); !errors.Is(err, ErrCollectiveTimeoutNeedsProbe) {
		t.Errorf("RunToEnd without the probe: %v", err)
	}
}
