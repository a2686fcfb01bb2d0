package triage

import (
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
)

// The reasons no count of an analysis stands, as the JSON's counts_uncounted.why names them (NothingCountedWhy's
// words, snake case).
const (
	UncountedNoTorch         = "no_torch_output"  // the input holds no torch output
	UncountedNothingCompiled = "nothing_compiled" // torch.compile was off, or no frame compiled (NothingCompiled)
)

// CountsUncounted is the report JSON's counts_uncounted: why none of its counts (counts, per_rank) stands but
// runtime_errors, whatever their zeros say, and the phrase the text, the Markdown, the gate, the bring-up log and
// the TUI say it in (Analysis.Uncounted). The JSON leaves it out where the counts stand.
type CountsUncounted struct {
	Why   string `json:"why"`   // UncountedNoTorch, UncountedNothingCompiled
	Words string `json:"words"` // "nothing compiled (torch.compile off: TORCHDYNAMO_DISABLE=1)", …
}

// NothingCountedWhy says in a few words why no count of an analysis stands: "no torch output" where its input holds
// none, "nothing compiled" where torch.compile was off or no frame compiled (ReportEvidence.NothingCompiled:
// nothing could break or recompile, so its zeros are no count); "" where its counts stand. It is the one test of
// it: Uncounted words it for the report, the gate and the TUI, and the bring-up log's count words say it of each
// count ("graph breaks not counted (nothing compiled)", story.RulesOf).
func (an *Analysis) NothingCountedWhy() string {
	switch {
	case an == nil:
		return ""
	case !an.Evidence.TorchSeen:
		return "no torch output"
	case an.Evidence.NothingCompiled() != "":
		return "nothing compiled"
	}
	return ""
}

// Uncounted is the one phrase that stands for every count of an analysis that counted nothing (NothingCountedWhy),
// runtime errors apart: "no torch output yet" of a run still going, "no torch output: nothing counted"
// (NoTorchText), "nothing compiled (torch.compile off: TORCHDYNAMO_DISABLE=1)"; "" where its counts stand. The
// report's counts line and each of its "Per rank" lines, the Markdown, the gate's counted line, the bring-up log
// and the TUI say it in place of the zeros.
func (an *Analysis) Uncounted() string {
	switch an.NothingCountedWhy() {
	case "":
		return ""
	case "nothing compiled":
		return "nothing compiled (" + an.Evidence.NothingCompiledShort() + ")"
	}
	if an.Run != nil && an.Run.Outcome == report.OutcomeRunning {
		return "no torch output yet" // it may yet print some
	}
	return an.NoTorchText()
}

// countsUncounted is the JSON's counts_uncounted: nil where the counts stand.
func (an *Analysis) CountsUncounted() *CountsUncounted {
	why := an.NothingCountedWhy()
	if why == "" {
		return nil
	}
	return &CountsUncounted{Why: strings.ReplaceAll(why, " ", "_"), Words: an.Uncounted()}
}
