package tui

import (
	"strings"
	"testing"
)

// Keys that need a launch or a live run say what they can do of opened logs: d offered "rerun with r (or mark two
// runs in h)", x said nothing, and F in the log showed "following" of a file that will not grow.
func TestOpenModeKeysSayWhatAppliesToOpenedLogs(t *testing.T) {
	m := openModel(t, 120, 32, "../../testdata/gpu-e2e/e2e-20261127/g08b-limit")
	press(m, "d")
	if strings.Contains(m.flash, "rerun with r") || !strings.Contains(m.flash, "torchtriage diff") {
		t.Errorf("d: %q", m.flash)
	}
	m.flash = ""
	press(m, "x")
	if m.flash != "no run is live: opened logs are read, not run" {
		t.Errorf("x: %q", m.flash)
	}
	m.flash = ""
	press(m, "l", "F")
	s := plain(m)
	if strings.Contains(s, "· following") {
		t.Errorf("F on an opened file:\n%s", s)
	}
	if !strings.Contains(m.flash, "nothing more will come") {
		t.Errorf("F: %q", m.flash)
	}
}
