package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// checksOf turns the facts into doctor's lines, in the order of the screen.
func checksOf(f facts) []check {
	out := []check{checkPython(f)}
	if f.Probe != nil {
		out = append(out, checkTorch(f))
	}
	out = append(out, checkGPU(f))
	if f.Probe != nil && f.Probe.Torch != nil {
		out = append(out, checkLogNames(f))
		if c, ok := checkTorchLogsEnv(f); ok {
			out = append(out, c)
		}
		if c, ok := checkCppCompiler(f); ok {
			out = append(out, c)
		}
	}
	out = append(out, checkTorchrun(f), checkSrun(f))
	for _, d := range f.Caches {
		out = append(out, checkCache(d))
	}
	out = append(out, checkKnobs(f)...)
	out = append(out, checkTerminal(f.Terminal), checkTmux(f), checkStore(f))
	return out
}

func checkPython(f facts) check {
	c := check{ID: "python", Title: "python"}
	if f.Probe == nil {
		c.Status, c.Detail = statusFail, f.PythonError
		c.Fix = "activate the environment your repro runs in, or pass --python PATH"
		return c
	}
	c.Status, c.Detail = statusOK, fmt.Sprintf("%s %s", f.Probe.Python, f.Probe.PythonVersion)
	if f.Probe.Venv {
		c.Detail += " (venv " + f.Probe.Prefix + ")"
	}
	return c
}

// torchVersion is the imported torch's version, "" without one.
func torchVersion(f facts) string {
	if f.Probe == nil || f.Probe.Torch == nil {
		return ""
	}
	return f.Probe.Torch.Version
}

// minorOf is torch's 2.x minor version, -1 when unknown.
func minorOf(version string) int {
	if m, ok := runs.TorchMinor(version); ok {
		return m
	}
	return -1
}

func checkTorch(f facts) check {
	p, c := f.Probe, check{ID: "torch", Title: "torch"}
	switch {
	case p.TorchMissing:
		c.Status, c.Detail = statusFail, "no torch for "+p.Python
		c.Fix = "pip install torch into that environment, or pass --python PATH of the one that has it"
	case p.Torch == nil:
		c.Status, c.Detail = statusFail, "import torch fails: "+p.TorchError
		c.Fix = "repair the install (pip install --force-reinstall torch), or pass --python PATH of another environment"
	default:
		build := "CPU build"
		if t := p.Torch; t.CUDA != "" {
			build = "CUDA " + t.CUDA
		} else if t.HIP != "" {
			build = "ROCm/HIP " + t.HIP
		}
		c.Status, c.Detail = statusOK, fmt.Sprintf("%s (%s) at %s", p.Torch.Version, build, filepath.Dir(p.Torch.File))
	}
	return c
}

func checkGPU(f facts) check {
	c := check{ID: "gpu", Title: "GPU", Status: statusOK}
	driver := "no NVIDIA driver loaded"
	if f.Driver != "" {
		driver = "NVIDIA driver " + f.Driver
	}
	if f.Probe == nil || f.Probe.Torch == nil {
		c.Detail = driver + " (no torch to ask about GPUs)"
		return c
	}
	t := f.Probe.Torch
	switch {
	case t.CUDAAvailable:
		c.Detail = fmt.Sprintf("%s (capability %s) ×%d, %s", t.GPU, t.Capability, t.DeviceCount, driver)
	case t.CUDA == "" && t.HIP == "":
		c.Status, c.Detail = statusWarn, "this torch is a CPU build: compiled repros run on the CPU ("+driver+")"
		c.Fix = "install a CUDA build of torch for GPU repros (reading logs needs none)"
	default:
		c.Status, c.Detail = statusWarn, "torch.cuda.is_available() is False ("+driver+")"
		if t.CUDAError != "" {
			c.Detail = "asking CUDA failed: " + t.CUDAError + " (" + driver + ")"
		}
		c.Fix = "fine for reading logs; for GPU repros check nvidia-smi, CUDA_VISIBLE_DEVICES and that the driver " +
			"supports CUDA " + t.CUDA
		if f.Driver == "" {
			c.Fix = "fine for reading logs; GPU repros need a GPU and its driver (no " + nvidiaDriverFile + ")"
		}
	}
	return c
}

// checkLogNames says which TORCH_LOGS names this torch accepts and which preset names it would reject.
func checkLogNames(f facts) check {
	c := check{ID: "torch_logs_names", Title: "TORCH_LOGS names", Status: statusOK}
	version := torchVersion(f)
	if len(f.LogNames) == 0 {
		c.Status = statusWarn
		c.Detail = "cannot tell which names torch " + version + " accepts: " + f.Probe.LogNamesError
		c.Fix = "nothing to do: a run whose TORCH_LOGS torch rejects is relaunched once without the rejected name"
		return c
	}
	from := "asked torch"
	if f.LogNamesFrom == "table" {
		from = "torchtriage's table for " + version + "; torch's registry could not be read: " + f.Probe.LogNamesError
	}
	rejected := map[string][]string{} // name -> presets
	var order []string
	for _, p := range runs.Presets() {
		for _, n := range p.Logs {
			base := strings.TrimLeft(n, "+-")
			if strings.Contains(base, ".") || slices.Contains(f.LogNames, base) {
				continue // a module name is accepted wherever TORCH_LOGS is
			}
			if _, seen := rejected[base]; !seen {
				order = append(order, base)
			}
			rejected[base] = append(rejected[base], p.Name)
		}
	}
	if len(order) == 0 {
		c.Detail = fmt.Sprintf("torch %s accepts %d names (%s); every preset's names among them", version, len(f.LogNames), from)
		return c
	}
	var parts []string
	for _, n := range order {
		parts = append(parts, fmt.Sprintf("%s (preset %s)", n, strings.Join(rejected[n], ", ")))
	}
	c.Status = statusWarn
	c.Detail = fmt.Sprintf("torch %s accepts %d names (%s) but rejects %s", version, len(f.LogNames), from, strings.Join(parts, "; "))
	c.Fix = "such a preset's run fails at import torch and is relaunched once without the name; or pick another preset"
	return c
}

// checkTorchLogsEnv checks the environment's own TORCH_LOGS: torch validates it at import.
func checkTorchLogsEnv(f facts) (check, bool) {
	p := f.Probe
	if p.TorchLogs == nil {
		return check{}, false
	}
	value := *p.TorchLogs
	c := check{ID: "torch_logs_env", Title: "TORCH_LOGS", Status: statusOK,
		Detail: fmt.Sprintf("%q is accepted (run sets its preset's TORCH_LOGS instead)", value)}
	var bad []string
	fails := "" // how `import torch` fails with it, where no name is the one rejected
	switch {
	case p.TorchLogsError != "":
		unknown, _, ok := runs.ParseInvalidLogSettings([]byte(p.TorchLogsError))
		bad = unknown
		if !ok || len(unknown) == 0 { // not a rejected name: TORCH_LOGS=help prints the help and fails too
			first, _, _ := strings.Cut(strings.TrimSpace(p.TorchLogsError), "\n")
			fails = first
			if strings.TrimSpace(value) == "help" {
				fails = "it prints torch's TORCH_LOGS help and raises"
			}
		}
	case p.TorchLogsCheckError != "" && len(f.LogNames) > 0:
		for _, n := range strings.Split(value, ",") {
			base := strings.TrimLeft(strings.TrimSpace(n), "+-")
			if base != "" && !strings.Contains(base, ".") && !slices.Contains(f.LogNames, base) {
				bad = append(bad, base)
			}
		}
	}
	// run sets each run's TORCH_LOGS itself (none for eager): its runs do not inherit this one
	switch {
	case len(bad) > 0:
		c.Status = statusFail
		c.Detail = fmt.Sprintf("%q: torch %s rejects %s, so `import torch` fails in every process that inherits it "+
			"(not torchtriage's runs: run sets TORCH_LOGS itself)", value, torchVersion(f), strings.Join(bad, ", "))
		c.Fix = "`unset TORCH_LOGS` (run sets TORCH_LOGS from its preset)"
	case fails != "":
		c.Status = statusFail
		c.Detail = fmt.Sprintf("%q: `import torch` fails with it in torch %s (%s), in every process that inherits it "+
			"(not torchtriage's runs: run sets TORCH_LOGS itself)", value, torchVersion(f), fails)
		c.Fix = "`unset TORCH_LOGS` (run sets TORCH_LOGS from its preset)"
	}
	return c, true
}

func checkTorchrun(f facts) check {
	c := check{ID: "torchrun", Title: "torchrun", Status: statusOK}
	if f.Torchrun == "" {
		if f.Probe != nil && f.Probe.DistributedRun {
			c.Detail = "not on PATH: --nproc runs python -m torch.distributed.run instead"
			return c
		}
		c.Status, c.Detail = statusWarn, "not on PATH, and torch.distributed.run cannot be imported: --nproc cannot start ranks"
		c.Fix = "it comes with torch: pip install torch into the environment on PATH"
		return c
	}
	c.Detail = f.Torchrun
	if f.Probe == nil || f.TorchrunPython == "" || filepath.Dir(f.TorchrunPython) == filepath.Dir(f.Probe.Python) {
		return c
	}
	c.Status = statusWarn
	c.Detail = fmt.Sprintf("%s runs %s, not %s: --nproc ranks would get another python and torch",
		f.Torchrun, f.TorchrunPython, f.Probe.Python)
	c.Fix = "put " + filepath.Dir(f.Probe.Python) + " first on PATH (activate that environment)"
	return c
}

func checkSrun(f facts) check {
	c := check{ID: "srun", Title: "srun", Status: statusOK, Detail: f.Srun}
	if f.Srun == "" {
		c.Detail = "not on PATH (needed only for --launcher srun)"
	}
	return c
}

func checkCache(d dirFacts) check {
	c := check{ID: strings.ReplaceAll(d.Name, " ", "_"), Title: d.Name, Status: statusOK, Detail: d.Path}
	env := d.Env
	if env == "" {
		env = "TORCHINDUCTOR_CACHE_DIR"
		if strings.HasPrefix(d.Name, "triton") {
			env = "TRITON_CACHE_DIR"
		}
	}
	if d.FS != "" {
		c.Detail += " on " + d.FS
	}
	var notes []string
	if !d.Exists {
		notes = append(notes, "not created yet")
	}
	// What a cache dir costs: compile-time-and-caches.md §3.0 (defaults) and §5 (TORCHINDUCTOR_CACHE_DIR row).
	switch {
	case d.NotDir != "":
		c.Status, notes = statusFail, []string{d.NotDir + " is a file, not a directory: every compile that caches fails"}
		c.Fix = "export " + env + "=<a directory you can write on a local disk>"
	case !d.Writable:
		c.Status, notes = statusFail, append(notes, "not writable, so compiled artifacts cannot be cached")
		c.Fix = "export " + env + "=<a directory you can write on a local disk>"
	case d.Shared:
		c.Status, notes = statusWarn, append(notes, "shared between nodes; cross-node races are reported "+
			"(apache/tvm-ffi#667, sgl-project/sglang#31347, deepseek-ai/DeepEP#683)")
		c.Fix = "export " + env + "=<a node-local directory>"
	case d.Env != "":
		notes = append(notes, "from "+d.Env)
	default:
		notes = append(notes, "the default, per host: a new node or container starts cold")
	}
	c.Detail += " (" + strings.Join(notes, "; ") + ")"
	return c
}

func checkKnobs(f facts) []check {
	var out []check
	minor := minorOf(torchVersion(f))
	for _, k := range knobs {
		v, ok := f.Knobs[k.name]
		if !ok {
			continue
		}
		st, detail, fix := k.check(v, minor)
		out = append(out, check{ID: "knob:" + k.name, Title: "compile knob", Status: st,
			Detail: fmt.Sprintf("%s=%s: %s", k.name, v, detail), Fix: fix})
	}
	if len(out) == 0 {
		out = append(out, check{ID: "knobs", Title: "compile knobs", Status: statusOK,
			Detail: "none of the regression-prone compile knobs is set"})
	}
	return out
}

func checkStore(f facts) check {
	d := f.Store
	c := check{ID: "store", Title: "run store", Status: statusOK, Detail: d.Path}
	switch {
	case d.NotDir != "":
		c.Status, c.Detail = statusFail, d.Path+": "+d.NotDir+" is a file, not a directory, so run cannot store its runs"
		c.Fix = "pass --store DIR: a directory, or a path where one can be created"
	case !d.Writable:
		c.Status, c.Detail = statusFail, d.Path+": not writable, so run cannot store its runs"
		c.Fix = "run from a directory you can write, or pass --store DIR to run"
	case d.Exists:
		c.Detail += " (" + report.Plural(f.Runs, "run") + ")"
	default:
		c.Detail += " (created by the first run)"
	}
	if d.Shared {
		c.Detail += " on " + d.FS
	}
	return c
}

// checkCppCompiler says which C++ compiler Inductor would build CPU kernels with, as torch's own search found it;
// no line when torch could not be asked (an older torch without cpp_builder, TORCH_INDUCTOR_INSTALL_GXX set).
func checkCppCompiler(f facts) (check, bool) {
	p := f.Probe
	c := check{ID: "cpp_compiler", Title: "C++ compiler", Status: statusOK}
	switch {
	case p.CppCompiler != "":
		c.Detail = p.CppCompiler + " (Inductor builds its CPU kernels with it: asked torch)"
	case strings.Contains(p.CppCompilerError, "InvalidCxxCompiler"):
		c.Status = statusWarn
		c.Detail = "none works (asked torch: " + p.CppCompilerError + "): backend=\"inductor\" cannot build CPU code"
		c.Fix = "install one (apt-get install g++, or set CXX); backend=\"aot_eager\" triages without it"
		if cxx := os.Getenv("CXX"); cxx != "" { // torch tried the one CXX names first
			c.Fix = "CXX=" + cxx + " is tried first: unset it or point it at a working compiler; backend=\"aot_eager\" triages without one"
		}
	default:
		return c, false
	}
	return c, true
}
