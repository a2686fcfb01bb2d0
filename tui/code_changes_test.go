package tui

import (
	"testing"

	"github.com/torchtriage/torchtriage/triage/story"
)

// The runs view names the code that changed between runs, with its line count, beside the preset and env changes
// (issue 35: the run keeps its code).
func TestRunsViewNamesCodeChanges(t *testing.T) {
	got := changesText([]story.Change{
		{What: "preset", Before: "breaks (graph_breaks,recompiles)", After: "eager"},
		{What: "code", Key: "repro.py", Before: "773600160cf7", After: "6704954ece15", Text: "repro.py changed (+2 −1)"},
		{What: "code", Key: "lib/helpers.py", Before: "5b76d0962c09", After: "aa", Text: "lib/helpers.py changed"},
	})
	want := "changed: preset breaks→eager · repro.py changed (+2 −1) · lib/helpers.py changed"
	if got != want {
		t.Errorf("changesText = %q, want %q", got, want)
	}
}
