package cli

import (
	"path/filepath"
	"testing"
)

// report and diff read their inputs once and exit: they tell main's collector so (OneShot) before reading; a
// command that does not read logs never does.
func TestOneShotCommands(t *testing.T) {
	log := filepath.Join("..", "testdata", "fixtures", "torch-2.14", "gb_recompile.triage.log")
	defer func(f func()) { OneShot = f }(OneShot)
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"report", log}, 1},
		{[]string{"diff", log, log}, 1},
		{[]string{"playbooks"}, 0},
	} {
		n := 0
		OneShot = func() { n++ }
		if code, _, errOut := run(t, c.args[0], c.args[1:]...); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errOut)
		}
		if n != c.want {
			t.Errorf("%v called OneShot %d times, want %d", c.args, n, c.want)
		}
	}
}
