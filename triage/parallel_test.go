package triage

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// A file parsed in parts gives the report of a serial parse: the same counts and findings (ids, records, ranks,
// playbooks). logparse's TestParallelEqualsSerial checks the records themselves, line numbers included.
func TestParallelReportEqualsSerial(t *testing.T) {
	var b strings.Builder
	r := 0
	for _, name := range expectedNames(loadExpected(t)) {
		data, err := os.ReadFile(filepath.Join(fixtures, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.SplitAfter(string(data), "\n") {
			if l != "" {
				fmt.Fprintf(&b, "[rank%d]:%s", r, l)
			}
		}
		r = (r + 1) % 4
	}
	path := filepath.Join(t.TempDir(), "all.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	report := func(min int64) (Counts, []string) {
		old := logparse.MinParallelSize
		logparse.MinParallelSize = min
		defer func() { logparse.MinParallelSize = old }()
		rep, _, err := BuildReport([]string{path}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var fs []string
		for _, f := range Analyze(rep, nil, nil).Findings {
			fs = append(fs, fmt.Sprintf("%s ×%d %v %s", f.ID, f.Records, f.Ranks, f.Playbook))
		}
		sort.Strings(fs)
		return rep.Counts, fs
	}
	sc, sf := report(1 << 62)
	pc, pf := report(0)
	if sc != pc {
		t.Fatalf("counts: serial %+v parallel %+v", sc, pc)
	}
	if len(sf) < 20 || strings.Join(sf, "\n") != strings.Join(pf, "\n") {
		t.Fatalf("findings differ:\nserial\n%s\nparallel\n%s", strings.Join(sf, "\n"), strings.Join(pf, "\n"))
	}
}
