package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Of two ranks that imported torch, only rank 0 wrote its config at exit (a copy of the real silenced-rank run,
// testdata/recorded/silenced-rank, with rank 1's exit file removed: synthetic). The Ranks view said "1 process
// probed: no other to compare …", as of a run of one process; it now names the rank that wrote none.
func TestConfigParityNamesTheRankWithoutConfig(t *testing.T) {
	src := "../testdata/recorded/silenced-rank/runs/0001-breaks"
	dir := filepath.Join(t.TempDir(), "synthetic_no_exit_rank1")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	exits, _ := filepath.Glob(filepath.Join(dir, "probe", "rank1-*.json"))
	if len(exits) != 1 {
		t.Fatalf("rank 1's exit file: %v", exits)
	}
	if err := os.Remove(exits[0]); err != nil {
		t.Fatal(err)
	}
	base, _ := filepath.Abs("testdata")
	rel, err := filepath.Rel(base, dir) // openModel reads its paths under testdata/
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{80, 120} {
		m := openModel(t, w, 60, rel)
		press(m, "R")
		s := plain(m)
		got := configParity(t, s)
		want := "1 process's config recorded: nothing to compare its versions, compile config and environment with " +
			"rank 1 (pid 22065) imported torch but wrote no config at exit: not compared"
		if got != want {
			t.Errorf("%d columns: Config parity %q, want %q\n%s", w, got, want, s)
		}
		if strings.Contains(s, "no other to compare") {
			t.Errorf("%d columns: 'no other' of a run with two ranks\n%s", w, s)
		}
	}
	// the recording as made: both configs recorded, nothing named
	m := openModel(t, 80, 60, "../../testdata/recorded/silenced-rank/runs/0001-breaks")
	press(m, "R")
	if got := configParity(t, plain(m)); strings.Contains(got, "wrote no config") {
		t.Errorf("both ranks wrote their config: %q", got)
	}
}
