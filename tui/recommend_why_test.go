package tui

import (
	"strings"
	"testing"
)

// A print refused under fullgraph=True (real 2.14.1: testdata/answers/torch-2.14/f07_error_on_graph_break): the
// Recommended box's Why said what the print playbook says of a break without fullgraph ("it compiles what it has,
// runs the print eagerly and starts a new graph"), which did not happen: the frame never compiled. It shows the
// finding's own why, as the report's detail and JSON do.
func TestRecommendedBoxOfAFullgraphErrorSaysNothingResumes(t *testing.T) {
	m := openModel(t, 120, 40, "../../testdata/answers/torch-2.14/f07_error_on_graph_break.triage.log")
	r := m.selected()
	if r == nil || r.pb == nil || r.pb.ID != "gb-print" {
		t.Fatalf("selected %+v", r)
	}
	box := strings.Join(strings.Fields(plain(m)), " ")
	if !strings.Contains(box, "Why: fullgraph=True (or error_on_graph_break) made this graph break an error") ||
		strings.Contains(box, "starts a new graph") {
		t.Errorf("Recommended box:\n%s", plain(m))
	}
}
