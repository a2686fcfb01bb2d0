package tui

import (
	"strings"
	"testing"
)

// The detail of a probe finding (testdata/recorded/caught-printed) states its title once (its detail text began
// with the same sentence: two copies), names a probe file as such, not as line 0 of a log, and says a process
// without a rank is none ("rank -").
func TestDetailOfAProbeFinding(t *testing.T) {
	m := openModel(t, 120, 50, "../../testdata/recorded/caught-printed/runs/0028-breaks")
	press(m, "enter")
	s := plain(m)
	if strings.Count(s, "the process counted 1 frame that did not compile") != 1 {
		t.Errorf("title twice:\n%s", s)
	}
	if strings.Contains(s, ".json:0") || strings.Contains(s, "rank -") || !strings.Contains(s, "probe file") {
		t.Errorf("evidence:\n%s", s)
	}
}
