package probe

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// What the probe writes of where in a process's life each compile happened (steps.py, appended to
// sitecustomize.py): steps-rank<R>-<pid>.jsonl, one line per compile the process started and a last line at its
// exit, each stamped with the three step clocks.

// Environment the probe reads for its step clocks; the tool sets them from check/run's flags (runs.Spec).
const (
	// StepMarkerEnv is the regular expression (Python's re; the tool accepts only what Go's regexp also reads)
	// whose matches on the program's stdout and stderr are its steps: group 1 the step number, else one step each.
	StepMarkerEnv = "TORCHTRIAGE_STEP_MARKER"
	// WarmupStepsEnv is the warm-up the run is judged with (check/run --warmup-steps); the probe ignores it, the
	// run's recorded environment keeps it so that a stored run is judged as it was run.
	WarmupStepsEnv = "TORCHTRIAGE_WARMUP_STEPS"
)

// Step sources: which clock placed the compiles at steps.
const (
	StepsOptimizer = "optimizer" // optimizer.step() calls of the first optimizer that stepped
	StepsMarker    = "marker"    // the step marker on the program's output
	StepsTime      = "time"      // whole seconds since the probe started
)

// Triggers of a compile (torch's CallbackTrigger names, 2.11+; "" in 2.6, where every start is a frame's).
const (
	TriggerDynamo      = "DYNAMO"
	TriggerBackward    = "LAZY_BACKWARD"
	TriggerCudagraph   = "CUDAGRAPH_RECORDING"
	triggerUnspecified = ""
)

// StepEvent is one compile the probe saw start.
type StepEvent struct {
	Ev        string  `json:"ev"` // "compile" (or "end": the exit line, read into StepLog)
	T         float64 `json:"t"`  // seconds since the probe started
	Opt       int     `json:"opt"`
	Marker    *int    `json:"marker"`
	Trigger   string  `json:"trigger"`
	CompileID string  `json:"compile_id"`
	Frame     string  `json:"frame"`
	File      string  `json:"file"`
	Line      int     `json:"line"`
	// Reason is the first guard failure Dynamo found when this compile is a recompile (its own words:
	// "0/0: tensor 'x' size mismatch at index 0. expected 8, actual 5"); nil otherwise
	Reason    *string `json:"reason"`
	Optimizer *string `json:"optimizer,omitempty"` // the exit line's: the class of the optimizer counted
}

// Recompile says the compile is a frame's recompile: Dynamo found a guard failure, or the compile id's second
// number (the frame's attempt) is above 0.
func (e StepEvent) Recompile() bool {
	if e.Reason != nil {
		return true
	}
	if e.Trigger != triggerUnspecified && e.Trigger != TriggerDynamo {
		return false
	}
	_, attempt, ok := strings.Cut(strings.Trim(e.CompileID, "[]"), "/")
	if !ok {
		return false
	}
	attempt, _, _ = strings.Cut(attempt, "_")
	n, err := strconv.Atoi(attempt)
	return err == nil && n > 0
}

// StepLog is one process's steps file.
type StepLog struct {
	PID    int
	Rank   int
	Events []StepEvent // the compiles, in order
	// Ended: the exit line was written; Opt, Marker and T are then how far each clock got
	Ended     bool
	Opt       int
	Marker    *int
	T         float64
	Optimizer string // the class of the optimizer whose steps were counted, "" when none stepped
	// NoRank: the process had no RANK (its start file says so): its Rank 0 is the probe's default, it is no rank
	NoRank bool
	Path   string
}

// Step is where the clock of source places e: the optimizer steps done, the last marker's step (-1 before the
// first), the whole seconds.
func (e StepEvent) Step(source string) int {
	switch source {
	case StepsOptimizer:
		return e.Opt
	case StepsMarker:
		if e.Marker == nil {
			return -1
		}
		return *e.Marker
	}
	return int(e.T)
}

// Source is the clock that places a run's compiles: the optimizer when any process's optimizer stepped, else the
// marker when one was given (marker), else time. The optimizer wins over a marker only when it stepped.
func Source(logs []StepLog, marker bool) string {
	for _, l := range logs {
		if l.Opt > 0 || lastOpt(l) > 0 {
			return StepsOptimizer
		}
	}
	if marker {
		return StepsMarker
	}
	return StepsTime
}

func lastOpt(l StepLog) int {
	if n := len(l.Events); n > 0 {
		return l.Events[n-1].Opt
	}
	return 0
}

// StepsSeen is how far the clock of source got in l: at its exit, else at its last compile.
func (l StepLog) StepsSeen(source string) int {
	switch {
	case l.Ended:
		return StepEvent{Opt: l.Opt, Marker: l.Marker, T: l.T}.Step(source)
	case len(l.Events) > 0:
		return l.Events[len(l.Events)-1].Step(source)
	}
	return -1
}

// ReadStepLogs reads every steps-rank<R>-<pid>.jsonl of <runDir>/probe, sorted by rank then pid, each told whether
// its process was a rank by its start file. A line cut by the process's death ends the file's reading (the lines
// before it stand).
func ReadStepLogs(runDir string) ([]StepLog, []error) {
	var out []StepLog
	errs := readEachSuffix(runDir, "steps-rank", ".jsonl", func(path string, data []byte) error {
		l, err := ParseStepLog(data)
		if err != nil {
			return fmt.Errorf("probe: %s: %w", path, err)
		}
		name := strings.TrimSuffix(strings.TrimPrefix(path[strings.LastIndexByte(path, os.PathSeparator)+1:], "steps-rank"), ".jsonl")
		r, p, _ := strings.Cut(name, "-")
		l.Rank, _ = strconv.Atoi(r)
		l.PID, _ = strconv.Atoi(p)
		l.Path = path
		out = append(out, l)
		return nil
	})
	starts, _ := ReadStarts(runDir)
	for i := range out {
		for _, st := range starts {
			if st.PID == out[i].PID && st.Rank == out[i].Rank {
				out[i].NoRank = st.NoRank()
			}
		}
	}
	sortByRank(out, func(l StepLog) (int, int) { return l.Rank, l.PID })
	return out, errs
}

// ParseStepLog reads one steps file's lines.
func ParseStepLog(data []byte) (StepLog, error) {
	var l StepLog
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e StepEvent
		if err := json.Unmarshal(line, &e); err != nil {
			if len(l.Events) == 0 && !l.Ended {
				return l, fmt.Errorf("malformed steps file")
			}
			break // a last line cut by the process's death
		}
		switch e.Ev {
		case "compile":
			l.Events = append(l.Events, e)
		case "end":
			l.Ended, l.Opt, l.Marker, l.T = true, e.Opt, e.Marker, e.T
			if e.Optimizer != nil {
				l.Optimizer = *e.Optimizer
			}
		}
	}
	return l, nil
}
