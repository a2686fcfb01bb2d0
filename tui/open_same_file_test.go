package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/session"
)

// `open DIR` of a directory holding a link to its log reads the log once (its counts are the file's) and the
// status line says which path was the same file; before, every record counted twice and nothing was said.
func TestOpenSameFileTwiceIsReadOnceAndSaid(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(testdataPath(t, "gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "train.log"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("train.log", filepath.Join(dir, "latest.log")); err != nil {
		t.Fatal(err)
	}
	m := newModel(options{mode: modeOpen, paths: []string{dir}, set: builtinSet(t)})
	m.now = func() time.Time { return fixedNow }
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 32})
	b, err := session.Open([]string{dir}, m.analyzer())
	if err != nil {
		t.Fatal(err)
	}
	if c := b.Analysis.Report.Counts; c.Recompiles != 7 || c.RecompileLimitHits != 1 {
		t.Errorf("counts %+v, want the file's 7 recompiles and 1 limit hit", c)
	}
	m.Update(loadedMsg{b: b, label: dir})
	if s := plain(m); !strings.Contains(s, "latest.log is the same file as") || !strings.Contains(s, "read once") {
		t.Errorf("the screen does not say latest.log was the same file:\n%s", s)
	}
}
