package triage_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
)

// A file parsed in parts (2, 7 and 40 of them) gives the report of a serial parse: the same counts and findings
// (ids, records, ranks, playbooks) and the very same JSON, evidence included. logparse's TestParallelEqualsSerial
// checks the records themselves, line numbers and order included.
func TestParallelReportEqualsSerial(t *testing.T) {
	var b strings.Builder
	r := 0
	for _, name := range triage.ExpectedNames(triage.LoadExpected(t)) {
		data, err := os.ReadFile(filepath.Join(triage.Fixtures, name))
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
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	report := func(min, partSize int64) (report.Counts, []string, string) {
		oldMin, oldPart := logparse.MinParallelSize, logparse.PartSize
		logparse.MinParallelSize, logparse.PartSize = min, partSize
		defer func() { logparse.MinParallelSize, logparse.PartSize = oldMin, oldPart }()
		rep, _, err := triage.BuildReport([]string{path}, nil)
		if err != nil {
			t.Fatal(err)
		}
		an := triage.Analyze(rep, nil, nil)
		var fs []string
		for _, f := range an.Findings {
			fs = append(fs, fmt.Sprintf("%s ×%d %v %s", f.ID, f.Records, f.Ranks, f.Playbook))
		}
		sort.Strings(fs)
		js, err := json.MarshalIndent(render.JSONOf(an), "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return rep.Counts, fs, string(js)
	}
	sc, sf, sj := report(1<<62, logparse.PartSize)
	for _, parts := range []int64{2, 7, 40} {
		pc, pf, pj := report(0, st.Size()/parts+1)
		if sc != pc {
			t.Fatalf("%d parts: counts: serial %+v parallel %+v", parts, sc, pc)
		}
		if len(sf) < 20 || strings.Join(sf, "\n") != strings.Join(pf, "\n") {
			t.Fatalf("%d parts: findings differ:\nserial\n%s\nparallel\n%s", parts, strings.Join(sf, "\n"), strings.Join(pf, "\n"))
		}
		if sj != pj {
			sl, pl := strings.Split(sj, "\n"), strings.Split(pj, "\n")
			for i := range min(len(sl), len(pl)) {
				if sl[i] != pl[i] {
					t.Fatalf("%d parts: report JSON differs at line %d:\n serial   %s\n parallel %s", parts, i+1, sl[i], pl[i])
				}
			}
			t.Fatalf("%d parts: report JSON differs in length", parts)
		}
	}
}
