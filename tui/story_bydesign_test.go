package tui

import (
	"path/filepath"
	"strings"
	"testing"
)

// The runs view's session story says what differs by design, as the bring-up log does: ddp-compile's 2.6 run lost
// a by-design DDP-wrapper break its 2.14.1 run had (contextlib.py:109), and nothing to fix changed; the story
// read "vs #1: no change" (story.Delta.ByDesign was left unread).
func TestStorySaysByDesignItemsDiffer(t *testing.T) {
	runs := filepath.Join("..", "testdata", "recorded", "ddp-compile", "runs")
	store := t.TempDir()
	copyRun(t, store, 1, filepath.Join(runs, "0007-breaks"))
	copyRun(t, store, 2, filepath.Join(runs, "0011-distributed"))
	m := storeModel(t, 160, 40, store)
	openRuns(t, m)
	s := plain(m)
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "┃│")) == "vs #1: no change" {
			t.Errorf("the story says no change though a by-design break is gone:\n%s", s)
		}
	}
	if !strings.Contains(s, "no change to fix") || !strings.Contains(s, "contextlib.py:109") {
		t.Errorf("the story does not name the by-design break that went:\n%s", s)
	}
}
