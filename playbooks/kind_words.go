package playbooks

import "strings"

// KindWords are how every command and screen names a finding kind: the one table of kind words.
type KindWords struct {
	// One and Many name findings of the kind in lists, counts and the TUI: "graph break", "graph breaks".
	One, Many string
	// Item is what diff, its TUI screen (d) and the baseline compare one finding of the kind as: a recompile
	// finding is one recompile reason (a guard class of a frame), not one recompile.
	Item string
	// Items is the plural of the whole kind in "not compared" notes: "non-cudagraphable partitions".
	Items string
}

// kindWords holds the words of each kind; a kind without an entry is named by its JSON name, underscores as
// spaces.
var kindWords = map[Kind]KindWords{
	KindGraphBreak:         {"graph break", "graph breaks", "graph break", "graph breaks"},
	KindRecompile:          {"recompile", "recompiles", "recompile reason", "recompiles"},
	KindLimitHit:           {"limit hit", "limit hits", "limit hit", "limit hits"},
	KindCudagraphSkip:      {"CUDA-graph skip", "CUDA-graph skips", "CUDA-graph skip", "CUDA-graph skips"},
	KindCompileError:       {"compile error", "compile errors", "compile error", "compile errors"},
	KindRuntimeError:       {"runtime error", "runtime errors", "runtime error", "runtime errors"},
	KindCudagraphPartition: {"CUDA-graph partition", "CUDA-graph partitions", "CUDA-graph partition", "non-cudagraphable partitions"},
	KindCudagraphRerecord:  {"CUDA-graph re-record", "CUDA-graph re-records", "CUDA-graph re-record", "CUDA-graph re-recordings"},
	KindGPUWarning:         {"GPU warning", "GPU warnings", "GPU warning", "GPU warnings"},
	KindCacheMiss:          {"cache miss", "cache misses", "cache miss", "cache misses"},
	KindCompileTime:        {"compile time", "compile-time findings", "compile time", "compile-time findings"},
	KindRankDisagreement:   {"rank disagreement", "rank disagreements", "rank disagreement", "rank disagreements"},
	KindConfigParity:       {"config parity", "setting differences", "config parity", "setting differences"},
	KindProbeMismatch:      {"probe mismatch", "probe mismatches", "probe mismatch", "probe mismatches"},
	KindDDPSplit:           {"DDPOptimizer split", "DDPOptimizer splits", "DDPOptimizer split", "DDPOptimizer splits"},
	KindHang:               {"hang", "hangs", "hang", "hangs"},
	KindCompileAfterWarmup: {"compile after warm-up", "compiles after warm-up", "compile after warm-up", "compiles after warm-up"},
	KindAccuracy:           {"wrong result", "wrong results", "wrong result", "wrong results"},
}

// WordsOf are the words of a kind.
func WordsOf(k Kind) KindWords {
	if w, ok := kindWords[k]; ok {
		return w
	}
	n := strings.ReplaceAll(string(k), "_", " ")
	return KindWords{n, n + "s", n, n + "s"}
}

// HasWords says whether the kind has words of its own in the table (else WordsOf makes them from its name).
func HasWords(k Kind) bool { _, ok := kindWords[k]; return ok }
