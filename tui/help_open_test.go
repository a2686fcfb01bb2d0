package tui

import (
	"strings"
	"testing"
)

// The help of `open` lists no key that launches or stops a run (opened logs are read, not run): it listed r, x,
// p and space, each of which then only said it does not apply.
func TestOpenHelpListsNoRunKeys(t *testing.T) {
	m := openModel(t, 120, 50, "r07_fullgraph.triage.log")
	press(m, "?")
	s := plain(m)
	for _, k := range []string{"cancel run", "dump stacks", "rerun", "preset", "pick and relaunch"} {
		if strings.Contains(s, k) {
			t.Errorf("open help lists %q:\n%s", k, s)
		}
	}
	if !strings.Contains(s, "timeline") {
		t.Errorf("help lost its other keys:\n%s", s)
	}
}
