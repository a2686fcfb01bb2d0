package logparse

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A log that is truncated while it is being read through memory maps (rotated or rewritten under the tool) is
// parsed as far as it could be read, with a warning: never a SIGBUS crash. The truncation happens between the
// map and the read, every time.
func TestFileTruncatedWhileMappedIsReadWithAWarning(t *testing.T) {
	oldMin, oldPart := MinParallelSize, PartSize
	MinParallelSize, PartSize = 0, 64<<10
	t.Cleanup(func() { MinParallelSize, PartSize, afterMap = oldMin, oldPart, nil })
	one := readFixture(t, r05)
	path := filepath.Join(t.TempDir(), "rotated.log")
	if err := os.WriteFile(path, []byte(strings.Repeat(one, max(1, (1<<20)/len(one)))), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	var once sync.Once
	afterMap = func() { once.Do(func() { _ = os.Truncate(path, st.Size()/3) }) }
	var warnings []string
	var n int
	var facts Facts
	var mu sync.Mutex
	err := ParseInput(inputFor(path), false, nil, Sink{
		Emit:      func(*Record) { n++ },
		OnWarning: func(w string) { mu.Lock(); warnings = append(warnings, w); mu.Unlock() },
		OnFacts:   func(f Facts) { mu.Lock(); facts.Merge(f); mu.Unlock() },
	})
	if err != nil {
		t.Fatalf("ParseInput: %v, want a warning only", err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], path+" changed while being read") {
		t.Errorf("warnings %q, want one saying %s changed while being read", warnings, path)
	}
	if !facts.Changed { // the report's evidence.partial rests on it, not on the warning's words
		t.Errorf("the facts do not say the input changed while being read")
	}
	if n == 0 {
		t.Errorf("no record from what was read before the truncation")
	}
}
