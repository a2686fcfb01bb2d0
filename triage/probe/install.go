package probe

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

//go:embed sitecustomize.py
var siteMain []byte

//go:embed optim_scan.py
var siteOptim []byte

//go:embed steps.py
var siteSteps []byte

//go:embed force_backend.py
var siteForce []byte

// BackendEnv names the backend a probed run's every torch.compile call is forced to (force_backend.py): the
// ladder's tier. Unset, the program's own backend stands.
const BackendEnv = "TORCHTRIAGE_BACKEND"

//go:embed compile_site.py
var siteCompileSite []byte

//go:embed collective_timeout.py
var siteCollectiveTimeout []byte

// siteCustomize is the probe as Install writes it: sitecustomize.py, then the optimizer scan it calls at exit
// (optim_scan.py), the step clocks (steps.py), the backend forcing (force_backend.py), torch.compile's call sites
// (compile_site.py) and the collective timeout (collective_timeout.py) appended, so that a traceback's line in the
// probe is that line of sitecustomize.py.
var siteCustomize = slices.Concat(siteMain, []byte{'\n'}, siteOptim, []byte{'\n'}, siteSteps, []byte{'\n'}, siteForce,
	[]byte{'\n'}, siteCompileSite, []byte{'\n'}, siteCollectiveTimeout)

// CollectiveTimeoutEnv is the environment variable of `--collective-timeout` (seconds): the probe sets
// torch.distributed.init_process_group's timeout to it (collective_timeout.py), and says so on stderr.
const CollectiveTimeoutEnv = "TORCHTRIAGE_COLLECTIVE_TIMEOUT_S"

// DirEnv names the probe directory in a probed run's environment (Install): a run's recorded environment
// without it was launched without the probe.
const DirEnv = "TORCHTRIAGE_PROBE_DIR"

// Dir is the probe directory of a run directory.
func Dir(runDir string) string { return filepath.Join(runDir, "probe") }

// Install writes <runDir>/probe/sitecustomize.py, removes probe files a
// previous run left in that directory, and returns the environment additions
// that load it: PYTHONPATH=<probe dir> prepended to the PYTHONPATH of
// os.Environ, and TORCHTRIAGE_PROBE_DIR=<probe dir>. Paths are absolute.
func Install(runDir string) (env []string, err error) {
	if runDir == "" {
		return nil, fmt.Errorf("probe: empty run directory")
	}
	abs, err := filepath.Abs(runDir)
	if err != nil {
		return nil, fmt.Errorf("probe: run directory %q: %w", runDir, err)
	}
	dir := Dir(abs)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("probe: create %s: %w", dir, err)
	}
	for _, pattern := range []string{"rank*.json", "ready-*", "*.tmp", "modules-*.json", "steps-*.jsonl"} {
		stale, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, f := range stale {
			if err := os.Remove(f); err != nil {
				return nil, fmt.Errorf("probe: remove stale %s: %w", f, err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "sitecustomize.py"), siteCustomize, 0o644); err != nil {
		return nil, fmt.Errorf("probe: write sitecustomize.py: %w", err)
	}
	pythonPath := dir
	if old := os.Getenv("PYTHONPATH"); old != "" {
		pythonPath = dir + string(os.PathListSeparator) + old
	}
	return []string{"PYTHONPATH=" + pythonPath, DirEnv + "=" + dir}, nil
}

// ReadyPIDs lists, sorted, the processes that registered the SIGUSR1 stack
// dump (a ready-<pid> marker in the probe directory) and are still running.
// A marker is removed by its process at a normal exit; a marker left behind
// by a killed process is ignored when the pid is gone or, on Linux, when the
// pid now belongs to a process with another start time (pid reuse), so
// sending SIGUSR1 to the result never hits a process without the handler.
func ReadyPIDs(runDir string) []int {
	entries, err := os.ReadDir(Dir(runDir))
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "ready-")
		if !ok || e.IsDir() {
			continue
		}
		pid, err := strconv.Atoi(rest)
		if err != nil || pid <= 0 {
			continue
		}
		data, err := os.ReadFile(filepath.Join(Dir(runDir), e.Name()))
		if err != nil || !alive(pid, strings.TrimSpace(string(data))) {
			continue
		}
		pids = append(pids, pid)
	}
	sort.Ints(pids)
	return pids
}

// startTime reads field 22 of /proc/<pid>/stat (the start time in clock
// ticks); "" where /proc is not available.
func startTime(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return ""
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 20 {
		return ""
	}
	return fields[19]
}
