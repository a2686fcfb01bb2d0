package gate_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// check tells a hang from a crash from a timeout: the recorded 2-rank deadlock (rank 0 in all_reduce, rank 1 in
// a barrier, stopped at its timeout) is "hung" with where each rank waits, in text and JSON, exit 3; a rank that
// died of an error is "crashed"; neither is called the other.
func TestCheckTellsAHangFromACrash(t *testing.T) {
	rules := gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileErrors: true}
	for _, c := range []struct {
		run, outcome, text string
		exit               int
	}{
		{"diverged-hang", "hung", "the run hung: rank 0 waits in all_reduce at skip_sync.py:19 · rank 1 in monitored_barrier", gate.ExitDidNotComplete},
		{"dist-crash", "crashed", "the run did not complete: ", gate.ExitFailed},
	} {
		dir := testlogs.Path(t, "recorded", c.run, "runs", "0001-breaks")
		got, out, errs := triagetest.CheckPaths(t, gate.RunOptions{Rules: rules, Format: "text"}, dir)
		if got.Exit != c.exit || got.Result.RunOutcome != c.outcome || !strings.Contains(out+errs, c.text) {
			t.Errorf("%s: exit %d, outcome %q\n%s%s", c.run, got.Exit, got.Result.RunOutcome, out, errs)
		}
		_, js, _ := triagetest.CheckPaths(t, gate.RunOptions{Rules: rules, Format: "json"}, dir)
		var doc struct {
			RunOutcome string `json:"run_outcome"`
			Hang       string `json:"hang"`
		}
		if err := json.Unmarshal([]byte(js), &doc); err != nil || doc.RunOutcome != c.outcome || (c.outcome == "hung") != (doc.Hang != "") {
			t.Errorf("%s: JSON %+v (%v)", c.run, doc, err)
		}
	}
}
