package cli

import (
	"strings"
	"testing"
)

func TestCommandLines(t *testing.T) {
	for _, c := range []struct {
		name string
		cmd  func([]string) (int, string)
		args []string
		code int
		want string
	}{
		{"run help", runCmd, []string{"--help"}, 0, "torchtriage run -- CMD [ARGS...]"},
		{"run without command", runCmd, []string{"--preset", "breaks"}, 2, "give the repro's command after --"},
		{"run unknown preset", runCmd, []string{"--preset", "nope", "--", "python", "x.py"}, 2, `unknown preset "nope"`},
		{"run bad metric", runCmd, []string{"--metric", "(", "--", "python", "x.py"}, 2, "--metric"},
		{"run into a pipe", runCmd, []string{"--nproc", "2", "--", "python", "x.py"}, 2, "stdout is not a terminal"},
		{"demo help", demoCmd, []string{"-h"}, 0, "--scenario"},
		{"demo unknown scenario", demoCmd, []string{"--scenario", "nope"}, 2, "unknown scenario"},
		{"demo bad speed", demoCmd, []string{"--speed", "0"}, 2, "--speed must be above 0"},
		{"demo extra argument", demoCmd, []string{"x"}, 2, "unexpected argument"},
		{"open without paths", openCmd, nil, 2, "no log file, run directory or TORCH_TRACE directory given"},
		{"open missing file", openCmd, []string{"testdata/nope.log"}, 2, "cannot read testdata/nope.log"},
		{"open into a pipe", openCmd, []string{fx("torch-2.14/gb_recompile.triage.log")}, 2, "use `torchtriage report PATH…`"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := c.cmd(c.args)
			if code != c.code || !strings.Contains(out, c.want) {
				t.Fatalf("exit %d (want %d), output:\n%s", code, c.code, out)
			}
		})
	}
}

func runCmd(args []string) (int, string)  { return both("run", args) }
func demoCmd(args []string) (int, string) { return both("demo", args) }
func openCmd(args []string) (int, string) { return both("open", args) }

// both runs a command line with stdout and stderr together.
func both(cmd string, args []string) (int, string) {
	var b strings.Builder
	return Run(append([]string{cmd}, args...), nil, &b, &b), b.String()
}
