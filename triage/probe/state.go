package probe

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// What the probe writes while a process runs: start-rank<R>-<pid>.json as soon as torch is imported (the real
// torch version, before any exit) and compile-rank<R>-<pid>.json, kept up to date from torch's compile
// start/end callbacks (torch._dynamo.callback_handler; 2.6 calls them with no argument, 2.11+ with a trigger
// and a compile id).

// Start is what a process wrote when it imported torch.
type Start struct {
	PID        int     `json:"pid"`
	Rank       int     `json:"rank"`
	RankSource string  `json:"rank_source"` // "env" (RANK) or "default"
	Torch      string  `json:"torch"`
	CUDA       string  `json:"cuda"`
	Python     string  `json:"python"`
	Time       float64 `json:"time"` // unix seconds
	// Thread is the id of the process's main thread (threading.get_ident()), as a faulthandler dump prints it in hex
	// ("Current thread 0x00007fc74412c200"): a dump without a rank prefix is this process's when it names it. 0 when
	// not recorded (probes before 2026-12).
	Thread uint64 `json:"thread,omitempty"`
	File   string `json:"-"`
}

// ThreadID is Thread as a stack dump prints it ("0x00007fc74412c200"), "" when not recorded.
func (s Start) ThreadID() string {
	if s.Thread == 0 {
		return ""
	}
	return fmt.Sprintf("0x%016x", s.Thread)
}

// NoRank says the process had no RANK when it imported torch: it is no rank (its 0 is the probe's default).
func (s Start) NoRank() bool { return s.RankSource == "default" }

// CompileState is a process's compile phase: "compiling" (since Since) or "idle" (since the last compile ended).
type CompileState struct {
	PID        int     `json:"pid"`
	Rank       int     `json:"rank"`
	RankSource string  `json:"rank_source"` // "env" (RANK) or "default" (0: a process that is no rank)
	Phase      string  `json:"phase"`       // "compiling" | "idle"
	Trigger    string  `json:"trigger"`     // DYNAMO, LAZY_BACKWARD, CUDAGRAPH_RECORDING (2.11+); "" in 2.6
	CompileID  string  `json:"compile_id"`
	Function   string  `json:"function"` // the frame being compiled ("backward" for a lazy backward)
	File       string  `json:"file"`
	Line       int     `json:"line"`
	SinceUnix  float64 `json:"since"`
	Compiles   int     `json:"compiles"` // compiles that ended so far, done or failed (torch runs its end callbacks in a finally)
	Alive      bool    `json:"-"`        // the process still runs
	Path       string  `json:"-"`
}

// Who names the process: "rank 3", or "the process" for one that is no rank (its rank 0 is the probe's default).
func (s CompileState) Who() string {
	if s.RankSource == "default" {
		return "the process"
	}
	return "rank " + strconv.Itoa(s.Rank)
}

// Compiling reports whether the process is in a compile now.
func (s CompileState) Compiling() bool { return s.Phase == "compiling" && s.Alive }

// Since is when the phase began.
func (s CompileState) Since() time.Time {
	sec, frac := math.Modf(s.SinceUnix)
	return time.Unix(int64(sec), int64(frac*1e9))
}

// ReadStarts reads every start-rank<R>-<pid>.json of <runDir>/probe, sorted by rank then pid.
func ReadStarts(runDir string) ([]Start, []error) {
	var out []Start
	errs := readEach(runDir, "start-rank", func(path string, data []byte) error {
		var s Start
		if err := json.Unmarshal(data, &s); err != nil || s.PID <= 0 {
			return fmt.Errorf("probe: %s: malformed start file", path)
		}
		s.File = path
		out = append(out, s)
		return nil
	})
	sortByRank(out, func(s Start) (int, int) { return s.Rank, s.PID })
	return out, errs
}

// ReadCompileStates reads every compile-rank<R>-<pid>.json of <runDir>/probe, sorted by rank then pid, with
// whether each process still runs.
func ReadCompileStates(runDir string) ([]CompileState, []error) {
	var out []CompileState
	errs := readEach(runDir, "compile-rank", func(path string, data []byte) error {
		var s CompileState
		if err := json.Unmarshal(data, &s); err != nil || s.PID <= 0 {
			return fmt.Errorf("probe: %s: malformed compile state", path)
		}
		s.Path, s.Alive = path, alive(s.PID, "")
		out = append(out, s)
		return nil
	})
	sortByRank(out, func(s CompileState) (int, int) { return s.Rank, s.PID })
	return out, errs
}

// sortByRank orders by rank, then pid.
func sortByRank[T any](xs []T, key func(T) (int, int)) {
	sort.Slice(xs, func(i, j int) bool {
		ri, pi := key(xs[i])
		rj, pj := key(xs[j])
		if ri != rj {
			return ri < rj
		}
		return pi < pj
	})
}

func readEach(runDir, prefix string, fn func(path string, data []byte) error) []error {
	return readEachSuffix(runDir, prefix, ".json", fn)
}

func readEachSuffix(runDir, prefix, suffix string, fn func(path string, data []byte) error) []error {
	entries, err := os.ReadDir(Dir(runDir))
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return []error{fmt.Errorf("probe: read %s: %w", Dir(runDir), err)}
	}
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, suffix) {
			continue
		}
		path := filepath.Join(Dir(runDir), name)
		data, err := os.ReadFile(path)
		if err == nil {
			err = fn(path, data)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// CompilingNow describes the processes of a run that are compiling at now, e.g.
// "rank 3 compiling `forward` for 2m10s · ranks 0-2,4-7 not compiling"; "" when none is.
func CompilingNow(runDir string, now time.Time) string {
	states, _ := ReadCompileStates(runDir)
	return DescribeCompiling(states, now)
}

// DescribeCompiling words the compiling processes of states (see CompilingNow).
func DescribeCompiling(states []CompileState, now time.Time) string {
	var parts, idle []string
	for _, s := range states {
		if !s.Alive {
			continue
		}
		if !s.Compiling() {
			idle = append(idle, fmt.Sprint(s.Rank))
			continue
		}
		what := "compiling"
		if s.Function != "" {
			what += " `" + s.Function + "`"
		}
		if s.CompileID != "" {
			what += " [" + s.CompileID + "]"
		}
		parts = append(parts, fmt.Sprintf("%s %s for %s", s.Who(), what, now.Sub(s.Since()).Round(time.Second)))
	}
	if len(parts) == 0 {
		return ""
	}
	out := strings.Join(parts, " · ")
	if len(idle) > 0 {
		word := "rank"
		if len(idle) > 1 {
			word = "ranks"
		}
		out += fmt.Sprintf(" · %s %s not compiling (waiting)", word, strings.Join(idle, ","))
	}
	return out
}

// CompilingPart is one compiling process of DescribeCompiling's words.
type CompilingPart struct {
	Rank      int // -1: "the process" (no rank)
	Function  string
	CompileID string
	For       time.Duration // how long it had been compiling when the words were made
}

var compilingPart = regexp.MustCompile("(?:rank (\\d+)|the process) compiling(?: `([^`]*)`)?(?: \\[([^\\]]*)\\])? for ([0-9hms.]+)")

// ParseCompiling reads DescribeCompiling's words back (a stall's note in meta.json: "rank 1 compiling `step` [0/0]
// for 20s · rank 0 not compiling (waiting)"): the processes that were compiling; nil for none.
func ParseCompiling(words string) []CompilingPart {
	var out []CompilingPart
	for _, m := range compilingPart.FindAllStringSubmatch(words, -1) {
		p := CompilingPart{Rank: -1, Function: m[2], CompileID: m[3]}
		if m[1] != "" {
			p.Rank, _ = strconv.Atoi(m[1])
		}
		p.For, _ = time.ParseDuration(m[4])
		out = append(out, p)
	}
	return out
}
