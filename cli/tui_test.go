package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommandLines(t *testing.T) {
	noLogs, devLink, deepLog := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(noLogs, "notes.md"), []byte("# notes\n"), 0o644)
	os.Symlink("/dev/zero", filepath.Join(devLink, "zero.log"))
	os.MkdirAll(filepath.Join(deepLog, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(deepLog, "a", "b", "train.log"), []byte("epoch 1\n"), 0o644)
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
		// what report refuses, open refuses the same way before its screen starts (it showed them cut in a pane)
		{"open a device", openCmd, []string{"/dev/zero"}, 2, "torchtriage open: /dev/zero is a device, not a log file\n"}, // open reads no pipe
		{"open a dir without logs", openCmd, []string{noLogs}, 2, noLogs + ": no log files found"},
		{"open a dir holding only a device link", openCmd, []string{devLink}, 2, devLink + ": no log files found"},
		{"open a dir with a log deep inside", openCmd, []string{deepLog}, 2, "use `torchtriage report PATH…`"},
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
