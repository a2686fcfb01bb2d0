package doctor

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// facts is everything doctor found, checks aside: what the python said, and what Go sees of the host.
type facts struct {
	Python       string       `json:"python"` // the interpreter asked (--python, else python3 on PATH)
	PythonError  string       `json:"python_error,omitempty"`
	Probe        *probe.Facts `json:"probe,omitempty"` // what the python said; nil when it could not be run
	LogNames     []string     `json:"log_names,omitempty"`
	LogNamesFrom string       `json:"log_names_from,omitempty"` // "torch" (its registry) or "table" (torchtriage's, by version)

	Driver         string `json:"nvidia_driver,omitempty"` // the loaded NVIDIA kernel module's version
	Torchrun       string `json:"torchrun,omitempty"`
	TorchrunPython string `json:"torchrun_python,omitempty"` // the interpreter of its #! line
	Srun           string `json:"srun,omitempty"`
	Tmux           string `json:"tmux,omitempty"`

	Caches   []dirFacts        `json:"caches,omitempty"`
	Store    dirFacts          `json:"store"`
	Runs     int               `json:"runs"`  // runs already in the store
	Knobs    map[string]string `json:"knobs"` // the regression-prone knobs that are set
	Terminal termFacts         `json:"terminal"`
}

// dirFacts is a directory something will write to.
type dirFacts struct {
	Name     string `json:"name"`
	Path     string `json:"path"`
	Env      string `json:"env,omitempty"` // the variable it came from
	Exists   bool   `json:"exists"`
	Writable bool   `json:"writable"` // it, or the nearest directory above it that exists, takes a new file
	FS       string `json:"fs,omitempty"`
	Shared   bool   `json:"shared"` // on a network file system (NFS, Lustre, GPFS, …)
	// NotDir is the path, or the one above it, that exists but is no directory: nothing can be created under it
	NotDir string `json:"not_dir,omitempty"`
}

// nvidiaDriverFile is where Linux's NVIDIA kernel module says its version.
var nvidiaDriverFile = "/proc/driver/nvidia/version"

// driverRE reads "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  …" and the open module's
// "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build …".
var driverRE = regexp.MustCompile(`Kernel Module(?: for \S+)?\s+(\d+(?:\.\d+)+)`)

// gather asks the python and looks at the host; stdout is where doctor writes (is it a terminal?).
func gather(ctx context.Context, pythonFlag, store string, stdout io.Writer) facts {
	var f facts
	py, probed, err := askPython(ctx, pythonFlag)
	f.Python, f.Probe = py, probed
	if err != nil {
		f.PythonError = err.Error()
	}
	if probed != nil && probed.Torch != nil {
		if len(probed.LogNames) > 0 {
			f.LogNames, f.LogNamesFrom = probed.LogNames, "torch"
		} else if names, ok := runs.LogNamesFor(probed.Torch.Version); ok {
			f.LogNames, f.LogNamesFrom = names, "table"
		}
	}
	if data, err := os.ReadFile(nvidiaDriverFile); err == nil {
		if m := driverRE.FindSubmatch(data); m != nil {
			f.Driver = string(m[1])
		}
	}
	f.Torchrun, _ = exec.LookPath("torchrun")
	if f.Torchrun != "" {
		f.TorchrunPython = shebang(f.Torchrun)
	}
	f.Srun, _ = exec.LookPath("srun")
	f.Tmux, _ = exec.LookPath("tmux")
	if probed != nil {
		inductor := dirFacts{Name: "inductor cache", Path: probed.InductorCacheDir}
		if probed.InductorCacheDirEnv {
			inductor.Env = "TORCHINDUCTOR_CACHE_DIR"
		}
		triton := dirFacts{Name: "triton cache", Path: probed.TritonCacheDir}
		if probed.TritonCacheDirEnv {
			triton.Env = "TRITON_CACHE_DIR"
		}
		f.Caches = []dirFacts{examineDir(inductor), examineDir(triton)}
	}
	if store == "" {
		store = runs.DefaultStoreDir
	}
	abs, _ := filepath.Abs(store)
	f.Store = examineDir(dirFacts{Name: "run store", Path: abs})
	runs, _ := filepath.Glob(filepath.Join(abs, "[0-9][0-9][0-9][0-9]-*"))
	f.Runs = len(runs)
	f.Knobs = map[string]string{}
	for _, k := range knobs {
		if v, ok := os.LookupEnv(k.name); ok {
			f.Knobs[k.name] = v
		}
	}
	f.Terminal = examineTerminal(stdout)
	return f
}

// examineDir fills in whether d.Path exists, takes new files, and what file system it is on.
func examineDir(d dirFacts) dirFacts {
	at := d.Path
	if st, err := os.Stat(at); err == nil && st.IsDir() {
		d.Exists = true
	} else {
		if st, err := os.Stat(at); err == nil && !st.IsDir() {
			d.NotDir = at
		}
		for at != filepath.Dir(at) { // the nearest directory above it that exists: torch creates the rest
			at = filepath.Dir(at)
			if st, err := os.Stat(at); err == nil {
				if !st.IsDir() && d.NotDir == "" {
					d.NotDir = at
				}
				if st.IsDir() {
					break
				}
			}
		}
	}
	if d.NotDir != "" {
		d.Writable = false
		return d
	}
	if tmp, err := os.CreateTemp(at, ".torchtriage-doctor-*"); err == nil {
		d.Writable = true
		tmp.Close()
		os.Remove(tmp.Name())
	}
	d.FS, d.Shared = fsType(at)
	return d
}

// shebang is the interpreter a script's #! line names ("" for a binary or `#!/usr/bin/env python3`).
func shebang(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(io.LimitReader(f, 4096)).ReadString('\n')
	rest, ok := strings.CutPrefix(line, "#!")
	fields := strings.Fields(rest)
	if !ok || len(fields) == 0 || filepath.Base(fields[0]) == "env" {
		return ""
	}
	return fields[0]
}
