package runs

import (
	"path/filepath"
	"slices"
	"strings"
)

// The user's script behind the launcher (conda run, uv run, srun, docker exec, torchrun, env, a run.sh): what the
// TUI's header names.

// ScriptName is the user's script in a command: the first *.py it names ("torchrun --nproc-per-node 2
// train.py" → train.py), else the module of "-m" ("python -m pkg.mod" → pkg.mod), else the first *.sh
// ("bash run.sh" → run.sh, whatever it runs), else the first path after a known launcher, else "" (nothing
// can be known: the header shows the command itself).
func ScriptName(argv []string, shell bool) string {
	if shell && len(argv) > 0 {
		argv = strings.Fields(strings.Join(argv, " "))
	}
	for _, a := range argv {
		if !strings.HasPrefix(a, "-") && strings.HasSuffix(a, ".py") && !strings.Contains(a, "=") {
			return filepath.Base(a)
		}
	}
	for i, a := range argv {
		if a == "-m" && i+1 < len(argv) {
			return argv[i+1]
		}
	}
	for _, a := range argv {
		if !strings.HasPrefix(a, "-") && strings.HasSuffix(a, ".sh") && !strings.Contains(a, "=") {
			return filepath.Base(a)
		}
	}
	if len(argv) > 1 && slices.Contains(launchers, filepath.Base(argv[0])) {
		for _, a := range argv[1:] {
			if !strings.HasPrefix(a, "-") && strings.Contains(a, "/") && !strings.Contains(a, "=") {
				return filepath.Base(a)
			}
		}
	}
	return ""
}

// launchers run another program: the program behind them is the user's.
var launchers = []string{"conda", "mamba", "micromamba", "uv", "poetry", "pipenv", "pixi", "srun", "mpirun", "mpiexec",
	"docker", "podman", "apptainer", "singularity", "torchrun", "env", "nohup", "time", "numactl", "taskset", "sudo"}
