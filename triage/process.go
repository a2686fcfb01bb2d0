package triage

// What the in-process probe recorded for each process (triage/probe writes and reads the files), and the two
// checks made on it: settings that differ between ranks (ConfigParity) and breaks the process counted that its
// log does not show (CrossCheck).

// ProcessInfo is what the probe recorded for one process (one rank<R>-<pid>.json). Its Rank is 0 by default for a
// process that is no rank (RankOf says -1 then).
type ProcessInfo struct {
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
	File  string     `json:"-"` // the file it was read from
}

// compiledNothing: the probe saw the process begin no frame and measure no compile time (Dynamo's frame counters
// and compile times empty).
func (p ProcessInfo) compiledNothing() bool {
	return p.Counters["frames"]["total"] == 0 && p.Counters["frames"]["ok"] == 0 && len(p.CompileTimes) == 0
}

// RankOf is the process's rank, -1 for a process the probe gave rank 0 only by default (no RANK, no process
// group): no rank is shown for it.
func (p ProcessInfo) RankOf() int {
	if p.RankSource == "default" {
		return -1
	}
	return p.Rank
}
