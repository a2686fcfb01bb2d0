package logparse

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Counting's shortcuts (a recompile's lines read in place, builders recycled: counting.go) change no record:
// every record of every real log, each printed by four ranks, is the same with them and without, serial and in
// parts; and a recompile record with invalid UTF-8 gets the same payload both ways (its text is made valid first).
func TestCountingShortcutsChangeNoRecord(t *testing.T) {
	defer func() { countingShortcuts = true }()
	bad := filepath.Join(t.TempDir(), "bad_utf8.log")
	rc, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "torch-2.14", "gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	withBad := strings.ReplaceAll(string(rc), "scale == 2.0", "scale == \xff2.0\xe2\x82")
	if err := os.WriteFile(bad, []byte(withBad), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{ranksCopy(t), bad} {
		for _, workers := range []int{1, 4} {
			countingShortcuts = false
			want, _ := parseMemo(t, path, workers, true)
			countingShortcuts = true
			got, _ := parseMemo(t, path, workers, true)
			if len(got) != len(want) {
				t.Fatalf("%s, %d workers: %d records with the shortcuts, %d without", path, workers, len(got), len(want))
			}
			recompiles := 0
			for i := range want {
				got[i].sameBreak, want[i].sameBreak = 0, 0 // the memo's ids: each load numbers its texts anew
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("%s, %d workers: record %d differs with the shortcuts:\n got  %+v\n      %+v\n want %+v\n      %+v",
						path, workers, i, got[i], got[i].Recompile, want[i], want[i].Recompile)
				}
				if want[i].Kind == KindRecompile {
					recompiles++
				}
			}
			if recompiles == 0 {
				t.Fatalf("%s: no recompile record to read in place", path)
			}
		}
	}
}
