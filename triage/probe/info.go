package probe

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Info is what the probe recorded for one process (one rank<R>-<pid>.json, written at its exit); triage analyses
// it. Its Rank is 0 by default for a process that is no rank (RankOf says -1 then).
type Info struct {
	Rank       int    `json:"rank"`
	LocalRank  int    `json:"local_rank"`
	WorldSize  int    `json:"world_size"`
	PID        int    `json:"pid"`
	RankSource string `json:"rank_source"` // "env" (RANK), "dist" (get_rank()) or "default" (0)
	Torch      string `json:"torch"`       // torch.__version__
	Python     string `json:"python"`
	CUDA       string `json:"cuda"`       // torch.version.cuda; "" on CPU builds
	GPU        string `json:"gpu"`        // only when the process had initialised CUDA
	Capability string `json:"capability"` // "9.0"
	Driver     string `json:"driver"`     // NVIDIA kernel driver version ("570.124.06"), when the machine has one
	Host       string `json:"host"`
	Argv0      string `json:"argv0"`
	// Counters is torch._dynamo.utils.counters as it was at exit, e.g.
	// Counters["graph_break"][reason] = events, Counters["stats"]["unique_graphs"].
	Counters map[string]map[string]float64 `json:"counters"`
	// CompileTimes is seconds per compile phase, summed over the run.
	CompileTimes map[string]float64 `json:"compile_times"`
	// Config holds dynamo/inductor settings that change graphs ("dynamo.recompile_limit",
	// "inductor.triton.cudagraphs") and torch global state ("torch.default_dtype").
	Config map[string]any `json:"config"`
	// Env holds TORCH*, NCCL_*, CUDA_*, PYTORCH_* variables; secrets are "<redacted>".
	Env map[string]string `json:"env"`
	// EnvHash is the sha256 of the NAME=value lines of Env (sorted by name, per-rank names left out).
	EnvHash string `json:"env_hash"`
	// Optim is what each live optimizer's `step` was at exit (optim_scan.py); nil where the probe recorded none
	// (a file of an older probe, torch.optim not imported, the scan failed).
	Optim *OptimScan `json:"optim,omitempty"`
	// ModuleFrames are the compiled torch.nn modules Dynamo traced through torch's wrapper `inner`
	// (torch/_dynamo/external_utils.py: a module whose forward torch's trace rules skip, such as torch's own
	// layers or DDP), one per frame id: the module's class and the user's frames that called it.
	ModuleFrames []ModuleFrame `json:"module_frames,omitempty"`
	// CompileSites are where the user called torch.compile, per compiled object (compile_site.py)
	CompileSites []CompileSite `json:"compile_sites,omitempty"`
	File         string        `json:"-"` // the file it was read from
}

// CompileSite is one call of torch.compile the probe saw: what it compiled and the user's frame that called it.
type CompileSite struct {
	// Object is a module's class ("Net", "DistributedDataParallel(Net)", as ModuleFrame.Module names it) or a
	// function's qualified name; Kind "module" or "function"
	Object string `json:"object"`
	Kind   string `json:"kind"`
	// CodeFile, CodeLine: where the compiled code starts (a module's forward, the function's def line)
	CodeFile string `json:"code_file"`
	CodeLine int    `json:"code_line"`
	CompileCall
}

// CompileCall is the user's call of torch.compile: its frame and the arguments that decide how it recompiles.
type CompileCall struct {
	Call
	// Dynamic is the dynamic= it was given: nil when not given or None (automatic dynamic, the default); false
	// turns automatic dynamic off, so each new size compiles again.
	Dynamic   *bool  `json:"dynamic,omitempty"`
	Mode      string `json:"mode,omitempty"`      // mode=, "" when not given
	Fullgraph bool   `json:"fullgraph,omitempty"` // fullgraph=True
}

// Static: the call was given dynamic=False.
func (c *CompileCall) Static() bool { return c != nil && c.Dynamic != nil && !*c.Dynamic }

// CompileSiteOfModule is where the probe of rank (-1: any process) saw torch.compile called on a module of class
// module (as ModuleFrame.Module names it), if it saw one call of it only: two sites of one class name neither.
func CompileSiteOfModule(probes []Info, rank int, module string) (CompileSite, bool) {
	return oneSite(probes, rank, func(s CompileSite) bool { return s.Kind == "module" && s.Object == module })
}

// CompileSiteOfCode is where the probe of rank (-1: any process) saw torch.compile called on the code that
// starts at file:line (a module's forward, a function), if it saw one call of it only.
func CompileSiteOfCode(probes []Info, rank int, file string, line int) (CompileSite, bool) {
	return oneSite(probes, rank, func(s CompileSite) bool { return s.CodeLine == line && s.CodeFile == file && line > 0 })
}

func oneSite(probes []Info, rank int, match func(CompileSite) bool) (CompileSite, bool) {
	var found CompileSite
	n := 0
	for _, p := range probes {
		if rank >= 0 && p.RankOf() >= 0 && p.RankOf() != rank {
			continue
		}
		for _, s := range p.CompileSites {
			if match(s) && (n == 0 || s.File != found.File || s.Line != found.Line) {
				found = s
				n++
			}
		}
	}
	return found, n == 1
}

// ModuleFrame is one compiled module's frame, as the probe saw it at its first compile.
type ModuleFrame struct {
	FrameID    int    `json:"frame_id"`
	Module     string `json:"module"`      // the class: "TransformerEncoderLayer", "DistributedDataParallel(Net)"
	ModuleFile string `json:"module_file"` // where the class is defined
	ModuleLine int    `json:"module_line"`
	Calls      []Call `json:"calls"` // the user's frames on the compile's stack, innermost first (at most 3)
}

// Call is a frame of the user's code: the call of a compiled module.
type Call struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Function string `json:"function"`
}

// ModuleFrameOf is the module frame the probe of rank (-1: any process) recorded for frame id, if any.
func ModuleFrameOf(probes []Info, rank, frameID int) (ModuleFrame, bool) {
	for _, p := range probes {
		if rank >= 0 && p.RankOf() >= 0 && p.RankOf() != rank {
			continue
		}
		for _, f := range p.ModuleFrames {
			if f.FrameID == frameID && f.Module != "" {
				return f, true
			}
		}
	}
	return ModuleFrame{}, false
}

// RankOf is the process's rank, -1 for a process the probe gave rank 0 only by default (no RANK, no process
// group): no rank is shown for it.
func (p Info) RankOf() int {
	if p.RankSource == "default" {
		return -1
	}
	return p.Rank
}

// ReadDir reads every rank<R>-<pid>.json of <runDir>/probe, sorted by rank
// then pid. A file that cannot be read or parsed gives an error naming it;
// the other files are still read. A missing probe directory is not an error.
func ReadDir(runDir string) ([]Info, []error) {
	dir := Dir(runDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, []error{fmt.Errorf("probe: read %s: %w", dir, err)}
	}
	var infos []Info
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, "rank") || !strings.HasSuffix(name, ".json") {
			continue
		}
		path := filepath.Join(dir, name)
		info, err := readInfo(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		infos = append(infos, info)
	}
	sort.SliceStable(infos, func(i, j int) bool {
		if infos[i].Rank != infos[j].Rank {
			return infos[i].Rank < infos[j].Rank
		}
		return infos[i].PID < infos[j].PID
	})
	return infos, errs
}

func readInfo(path string) (Info, error) {
	var info Info
	data, err := os.ReadFile(path)
	if err != nil {
		return info, fmt.Errorf("probe: %s: %w", path, err)
	}
	if err := json.Unmarshal(data, &info); err != nil {
		return Info{}, fmt.Errorf("probe: %s: malformed probe file: %w", path, err)
	}
	if info.PID <= 0 {
		return Info{}, fmt.Errorf("probe: %s: malformed probe file: no pid", path)
	}
	info.File = path
	return info, nil
}
