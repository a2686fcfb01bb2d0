package story

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// commandText is exactly what ran, as a shell line: the executed argv (torchrun/srun wrapper and its port
// included); the user's argv when the run never built one.
func commandText(m runs.Meta) string { return runs.ShellJoin(ranArgv(m)) }

func ranArgv(m runs.Meta) []string {
	if len(m.Argv) > 0 {
		return m.Argv
	}
	argv := m.UserArgv
	if m.Shell && len(argv) > 0 {
		argv = []string{"sh", "-c", strings.Join(argv, " ")}
	}
	return argv
}

// sameCommandText is what ran without torchrun's per-run --master-port: what "the same command" compares
// (never printed).
func sameCommandText(m runs.Meta) string {
	argv := ranArgv(m)
	var out []string
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		if a == "--master-port" || a == "--master_port" {
			i++
			continue
		}
		if strings.HasPrefix(a, "--master-port=") || strings.HasPrefix(a, "--master_port=") {
			continue
		}
		out = append(out, a)
	}
	return runs.ShellJoin(out)
}

// commandKey identifies "the same command": what ran and where, preset aside.
func commandKey(m runs.Meta) string { return sameCommandText(m) + "\x00" + m.Cwd }

// SameCommand reports whether two runs ran the same command in the same directory (torchrun's --master-port and
// the preset aside): a rerun, as the bringup log compares runs.
func SameCommand(a, b runs.Meta) bool { return commandKey(a) == commandKey(b) }

var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true}

// scriptKey identifies "the same script": the python script or -m module (else the program; the whole line
// of sh -c), the launcher and rank count, and the directory; other arguments may differ.
func scriptKey(m runs.Meta) string {
	argv := m.UserArgv
	prog := ""
	switch {
	case m.Shell || len(argv) == 0 || (len(argv) > 1 && argv[1] == "-c" && shells[filepath.Base(argv[0])]):
		prog = strings.Join(argv, " ")
	default:
		prog = argv[0]
		for i, a := range argv {
			if a == "-m" && i+1 < len(argv) {
				prog = "-m " + argv[i+1]
				break
			}
			if strings.HasSuffix(a, ".py") {
				prog = a
				break
			}
		}
	}
	return fmt.Sprintf("%s\x00%s\x00%d\x00%s", prog, m.Launcher, m.Nproc, m.Cwd)
}

// exitText words how a run ended: "exit 0", "exit 1", "timed out (SIGTERM)", "killed (SIGKILL)".
func exitText(m runs.Meta) string {
	switch m.State {
	case runs.StateFailedToStart:
		return "failed to start"
	case runs.StateCorrupt:
		return "unreadable meta.json"
	case runs.StateRunning, runs.StateStalled, runs.StateInterrupted:
		return string(m.State)
	}
	s := strings.ReplaceAll(string(m.State), "_", " ")
	if m.State == runs.StateExited && m.ExitCode != nil {
		s = "exit " + strconv.Itoa(*m.ExitCode)
	}
	if m.Signal != "" {
		s += " (" + m.Signal + ")"
	}
	return s
}

// RunsScript reports whether a run's command names script: a .py argument equal to it, to its file name, or to
// the same file (relative to the run's directory and to ours); a -m module by its name.
func RunsScript(m runs.Meta, script string) bool {
	want := filepath.Clean(script)
	wantAbs, _ := filepath.Abs(script)
	for i, a := range m.UserArgv {
		if a == "-m" && i+1 < len(m.UserArgv) && (m.UserArgv[i+1] == script || "-m "+m.UserArgv[i+1] == script) {
			return true
		}
		for _, f := range strings.Fields(a) {
			if !strings.HasSuffix(f, ".py") {
				continue
			}
			abs := f
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(m.Cwd, f)
			}
			if filepath.Clean(f) == want || filepath.Base(f) == want || abs == wantAbs {
				return true
			}
		}
	}
	return false
}
