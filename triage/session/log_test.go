package session

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/torchtriage/torchtriage/triage/report"
)

// One rank decoder: an srun --label log (every line "N: …") gives the report and the log view's rank filter the
// same ranks (the log view used to decode only [rankN]: prefixes and found none here).
func TestLogRanksMatchTheReport(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures, "torch-2.14/r05_dist_c10d.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	var srun bytes.Buffer
	for i, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		// drop torchrun's [rankN]: and label the line as srun would
		if j := bytes.Index(line, []byte("]:")); bytes.HasPrefix(line, []byte("[rank")) && j > 0 {
			srun.WriteString(string(line[5:j]) + ": ")
			line = bytes.TrimPrefix(line[j+2:], []byte(" "))
		} else {
			srun.WriteString([]string{"0: ", "1: "}[i%2])
		}
		srun.Write(line)
	}
	path := filepath.Join(t.TempDir(), "srun.log")
	if err := os.WriteFile(path, srun.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := report.Load([]string{path}, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w := NewLogWriter(path)
	w.Write(0, srun.Bytes())
	w.Flush()
	if got, want := w.View().Ranks(), l.Report.Ranks; !reflect.DeepEqual(got, want) || len(want) != 2 {
		t.Fatalf("log view ranks %v, report ranks %v (want the same two)", got, want)
	}
}
