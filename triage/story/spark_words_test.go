package story

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// sparkAgrees checks that the sparkline (the TUI's trend of graph breaks and recompiles) says of every run what
// the words beside it say (CountWords, the trend line): a gap where they give no count ("not in the log", "not
// logged", "not counted (…)", a run that compiled nothing), the count where they give one, a floor exactly where
// they say "≥N" or "at least N".
func sparkAgrees(t *testing.T, s *Story) {
	t.Helper()
	breaks, recompiles := s.Sparkline()
	fb, fr := s.SparkFloors()
	for _, series := range []struct {
		key    string
		vals   []int
		floors []bool
	}{{CountGraphBreaks, breaks, fb}, {CountRecompiles, recompiles, fr}} {
		for i := range s.Runs {
			r := &s.Runs[i]
			cw := r.countWord(series.key)
			v, floor := series.vals[i], series.floors[i]
			switch {
			case !r.compiled() || !cw.Counted():
				if v != -1 {
					t.Errorf("run %d %s: the words say %q (%q), the sparkline draws %d (floor %v)", r.ID, series.key, cw.Words, cw.Value, v, floor)
				}
			case strings.TrimPrefix(cw.Value, "≥") != strconv.Itoa(v) || floor != strings.HasPrefix(cw.Value, "≥"):
				t.Errorf("run %d %s: the words say %q (%q), the sparkline draws %d (floor %v)", r.ID, series.key, cw.Words, cw.Value, v, floor)
			}
		}
	}
}

// Every recorded run (real PyTorch output: silenced logs, stopped and crashed runs, runs that compiled nothing,
// logged no graph breaks, or had torch reject their TORCH_LOGS) in one store: the sparkline and the words agree
// on each, and so they do in the bringup store of the other tests. (They agreed before the sparkline asked
// Rules.Point too: a silenced log clears the evidence's GraphBreaksLogged and RecompilesLogged, which both read.)
func TestSparklineSaysWhatTheWordsSay(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "recorded", "*", "runs*", "[0-9]*"))
	if err != nil || len(dirs) < 40 {
		t.Fatalf("recorded runs: %d, %v", len(dirs), err)
	}
	stores := []string{storeOf(t, dirs...), bringupStore(t)}
	for _, store := range stores {
		s, err := Build(store)
		if err != nil {
			t.Fatal(err)
		}
		if store != stores[1] && len(s.Runs) != len(dirs) {
			t.Fatalf("%d runs of %d", len(s.Runs), len(dirs))
		}
		sparkAgrees(t, s)
	}
}

// A run whose input showed no torch output counts nothing ("graph breaks not counted (no torch output)"), whatever
// number its report holds: the sparkline draws no point for it either. It read the count as a floor ("≥1"),
// deciding apart from the words. (No recorded run is such: a count of a break comes with torch output. The case
// shows the sparkline took a decision of its own; now it takes Rules.Point's.)
func TestSparklineOfARunThatCountedNothing(t *testing.T) {
	zero := 0
	an := &triage.Analysis{Report: &report.Report{Counts: report.Counts{GraphBreaks: 1, Recompiles: 2}},
		Evidence: report.ReportEvidence{LogsFrom: "run"}}
	r := Run{ID: 1, an: an, Counts: &Counts{GraphBreaks: 1, Recompiles: 2},
		meta: runs.Meta{ID: 1, Preset: "breaks", State: runs.StateExited, ExitCode: &zero}}
	r.Logged = loggedBy(r.meta, an.Evidence)
	r.CountWords = countWords(&r)
	if w := r.countWord(CountGraphBreaks).Words; w != "graph breaks not counted (no torch output)" {
		t.Fatalf("words %q", w)
	}
	sparkAgrees(t, &Story{Runs: []Run{r}})
}
