package triage

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Issue 38, class 4: a file of torch's C++ frames and nothing else (the stack trace of a c10 exception, pasted
// without its terminate and what() lines) shows torch ran: never "no torch output".
func TestCppTorchFramesAreTorchOutput(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(Fixtures, "synthetic", "synthetic_nccl_watchdog_what.log"))
	if err != nil {
		t.Fatal(err)
	}
	var frames []string
	for l := range strings.Lines(string(b)) {
		if strings.HasPrefix(l, "frame #") {
			frames = append(frames, l)
		}
	}
	if len(frames) == 0 {
		t.Fatal("no frames in the fixture")
	}
	ev := ReportOfText(t, strings.Join(frames, "")).report.Evidence
	if !ev.TorchSeen || !slices.Contains(ev.TorchSeenBy, "a traceback through torch") {
		t.Errorf("torch seen %v by %v", ev.TorchSeen, ev.TorchSeenBy)
	}
}
