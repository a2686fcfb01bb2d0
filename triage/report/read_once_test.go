package report_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage/report"
)

// reportCounts loads paths as report does and returns the counts and inputs its JSON has, and what the command
// says of them on stderr: what was read once (AliasesText) and the warnings, a line each.
func reportCounts(t *testing.T, paths ...string) (map[string]int, []string, string) {
	t.Helper()
	l, err := report.Load(paths, report.LoadOptions{})
	if err != nil {
		t.Fatalf("report %v: %v", paths, err)
	}
	var counts map[string]int
	b, err := json.Marshal(l.Report.Counts)
	if err == nil {
		err = json.Unmarshal(b, &counts)
	}
	if err != nil {
		t.Fatal(err)
	}
	var said strings.Builder
	for _, w := range l.Warnings {
		said.WriteString("warning: " + w + "\n")
	}
	if len(l.ReadOnce) > 0 {
		said.WriteString(report.AliasesText(l.ReadOnce) + "\n")
	}
	return counts, l.Report.Inputs, said.String()
}

// logDir is a new directory holding a fixture log with graph breaks as name.
func logDir(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(testlogs.Path(t, "fixtures", "torch-2.14", "gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A file reached twice (a link beside it in a walked directory, a hard link, or the same path named twice) is one
// file: it is read once, and stderr says which path was the same file. Counting it twice doubled every count
// (gb_recompile's 7 recompiles and 1 limit hit read 14 and 2).
func TestSameFileTwiceIsReadOnce(t *testing.T) {
	dir := logDir(t, "train.log")
	one, _, _ := reportCounts(t, filepath.Join(dir, "train.log"))
	if one["recompiles"] != 7 || one["recompile_limit_hits"] != 1 {
		t.Fatalf("the fixture alone: %v", one)
	}
	if err := os.Symlink("train.log", filepath.Join(dir, "latest.log")); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "copies")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "train.log"), filepath.Join(sub, "hard.log")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{dir},
		{filepath.Join(dir, "train.log"), filepath.Join(dir, "train.log")},
		{filepath.Join(dir, "latest.log"), dir},
	} {
		counts, inputs, errb := reportCounts(t, args...)
		for _, k := range []string{"graph_break_records", "recompiles", "recompile_limit_hits", "graph_breaks"} {
			if counts[k] != one[k] {
				t.Errorf("report %v: %s %d, the file alone %d", args, k, counts[k], one[k])
			}
		}
		if len(inputs) != 1 {
			t.Errorf("report %v: inputs %v, want the one file", args, inputs)
		}
		if !strings.Contains(errb, "read once: ") || !strings.Contains(errb, "the same file as") && !strings.Contains(errb, "was named twice") {
			t.Errorf("report %v: stderr %q does not say a path was the same file", args, errb)
		}
	}
	if _, _, errb := reportCounts(t, filepath.Join(dir, "train.log"), filepath.Join(dir, "train.log")); !strings.HasSuffix(errb, "train.log was named twice\n") {
		t.Errorf("the same path twice: stderr %q", errb)
	}
	// a file's own name is the one kept, not a symbolic link's
	if _, inputs, _ := reportCounts(t, dir); len(inputs) != 1 || filepath.Base(inputs[0]) == "latest.log" {
		t.Errorf("report DIR kept %v, not the file (latest.log is a link to it)", inputs)
	}
	if _, inputs, _ := reportCounts(t, filepath.Join(dir, "latest.log"), filepath.Join(dir, "train.log")); len(inputs) != 1 || filepath.Base(inputs[0]) != "train.log" {
		t.Errorf("report latest.log train.log kept %v, want train.log", inputs)
	}
	// two different files stay two inputs, and nothing is said
	other := logDir(t, "other.log")
	f, err := os.OpenFile(filepath.Join(other, "other.log"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("one more line\n"); err != nil { // not a copy of train.log
		t.Fatal(err)
	}
	f.Close()
	if _, inputs, errb := reportCounts(t, filepath.Join(dir, "train.log"), filepath.Join(other, "other.log")); len(inputs) != 2 || errb != "" {
		t.Errorf("two files: inputs %v, stderr %q", inputs, errb)
	}
}

// A torchrun --log-dir tree and the console copy of the same run (--tee prints every line of the rank files again
// behind [defaultN]:) hold every record twice: the rank files are read once, from the console copy, and stderr
// says so. Before, report of the directory counted 4 recompiles for 2 and 2 processes dead for 1 (real torch
// 2.6 output, testdata/tee).
func TestConsoleCopyOfALogDirIsReadOnce(t *testing.T) {
	logs := testlogs.Path(t, "tee", "logs")
	console, _, _ := reportCounts(t, filepath.Join(logs, "console.log"))
	trees, _ := filepath.Glob(filepath.Join(logs, "none_*"))
	if len(trees) != 1 {
		t.Fatalf("log-dir trees %v", trees)
	}
	tree, inputs, errb := reportCounts(t, trees[0])
	if console["recompiles"] != 2 || console["runtime_errors"] != 1 || tree["recompiles"] != 2 || len(inputs) != 4 || errb != "" {
		t.Fatalf("console %v; the tree alone %v, inputs %v, stderr %q", console, tree, inputs, errb)
	}
	both, inputs, errb := reportCounts(t, logs)
	for k, v := range console {
		if both[k] != v {
			t.Errorf("%s %d, the console alone %d", k, both[k], v)
		}
	}
	if len(inputs) != 1 || !strings.Contains(errb, "read once: ") || !strings.Contains(errb, "console.log") {
		t.Errorf("inputs %v, stderr %q", inputs, errb)
	}
	// named in the other order, the console copy is still the one read
	if both, inputs, _ := reportCounts(t, trees[0], filepath.Join(logs, "console.log")); both["recompiles"] != 2 || len(inputs) != 1 {
		t.Errorf("tree then console: counts %v, inputs %v", both, inputs)
	}
}

// A log copied next to itself (train.log and train.log.txt with the same bytes) is read once; a file of the same
// size with other bytes is read. Before, the copy counted every record twice.
func TestCopiedLogIsReadOnce(t *testing.T) {
	dir := logDir(t, "train.log")
	data, err := os.ReadFile(filepath.Join(dir, "train.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "train.log.txt"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	one, _, _ := reportCounts(t, filepath.Join(dir, "train.log"))
	counts, inputs, errb := reportCounts(t, dir)
	if counts["recompiles"] != one["recompiles"] || len(inputs) != 1 || !strings.Contains(errb, "read once: ") || !strings.Contains(errb, "the same bytes as") {
		t.Errorf("counts %v (the file alone %v), inputs %v, stderr %q", counts, one, inputs, errb)
	}
	other := []byte(string(data))
	other[len(other)/2] ^= 1 // one byte differs, the size is the same
	if err := os.WriteFile(filepath.Join(dir, "train.log.txt"), other, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, inputs, errb := reportCounts(t, dir); len(inputs) != 2 || errb != "" {
		t.Errorf("a same-size file with other bytes: inputs %v, stderr %q", inputs, errb)
	}
}
