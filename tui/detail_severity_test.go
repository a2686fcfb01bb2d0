package tui

import (
	"strings"
	"testing"
)

// The detail's playbook header gives the finding's severity and category, not the playbook's defaults: the H200
// run of g08b showed its HIGH recompile (the frame hit the recompile limit) as "rc-dtype · medium · fix", where the
// report says HIGH.
func TestDetailGivesTheFindingsSeverity(t *testing.T) {
	m := openModel(t, 120, 80, "../../testdata/gpu-e2e/e2e-20261127/g08b-limit")
	press(m, "tab", "enter")
	s := plain(m)
	if !strings.Contains(s, "f recompiles 2×") {
		t.Fatalf("not the recompile's detail:\n%s", s)
	}
	if !strings.Contains(s, "rc-dtype · high · fix") || strings.Contains(s, "rc-dtype · medium") {
		t.Errorf("header:\n%s", s)
	}
}
