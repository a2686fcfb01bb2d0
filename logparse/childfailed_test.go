package logparse

import (
	"fmt"
	"path/filepath"
	"testing"
)

// torchrun's ChildFailedError tables of real runs (testdata/dist-hangs): a rank killed (2.14 names the signal after
// the exit code, 2.6 only in the traceback line), a rank it SIGTERMed listed under Failures (2.14).
func TestChildFailures(t *testing.T) {
	for _, c := range []struct{ log, want string }{
		{"torch-2.14/h04b_rank_killed.plain.log", "[{0 -15 21765 SIGTERM false Signal 15 (SIGTERM) received by PID 21765} " +
			"{1 -9 21766 SIGKILL true Signal 9 (SIGKILL) received by PID 21766}]"},
		{"torch-2.6/h04b_rank_killed.plain.log", "[{1 -9 26810 SIGKILL true Signal 9 (SIGKILL) received by PID 26810}]"},
		{"torch-2.14/h04_rank_crash.plain.log", "[{0 -15 21542 SIGTERM false Signal 15 (SIGTERM) received by PID 21542} " +
			"{1 1 21543  true To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html}]"},
	} {
		recs, _ := parseFile(t, filepath.Join("..", "testdata", "dist-hangs", c.log), Options{})
		got := ""
		for _, r := range recs {
			if r.Error != nil && r.Error.Summary {
				got = fmt.Sprint(ChildFailures(r.Lines))
			}
		}
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.log, got, c.want)
		}
	}
}
