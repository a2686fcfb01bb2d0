package triage

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
)

// basisOf words what a verdict rests on.
func BasisOf(ev report.ReportEvidence, run *report.RunFacts) []string {
	var b []string
	if ev.TorchSeen {
		b = append(b, "torch seen in "+strings.Join(ev.TorchSeenBy, ", "))
	} else {
		b = append(b, "no torch output")
	}
	switch {
	case ev.LogsFrom == "run":
		rejected := ""
		if ev.LogsRejected {
			rejected = " (torch rejected it: nothing was logged)"
		}
		b = append(b, "TORCH_LOGS from the run: "+cmp.Or(strings.Join(ev.Logs, ","), "(none)")+rejected)
	case ev.LogsFrom == "inferred":
		b = append(b, "logs seen in the input: "+strings.Join(ev.Logs, ","))
	case ev.LogsRejected:
		b = append(b, "torch rejected the TORCH_LOGS value: nothing was logged")
	default:
		b = append(b, "no sign of which TORCH_LOGS were on")
	}
	if ev.LogSilenced != "" {
		b = append(b, "log silenced: "+ev.LogSilenced)
	}
	switch {
	case ev.CompileOff != "":
		b = append(b, "torch.compile off ("+ev.CompileOff+")")
	case ev.NoFrameCompiled:
		b = append(b, "no frame compiled (probe)")
	case ev.NoGraphCompiled != "":
		b = append(b, "no graph compiled (probe)")
	}
	if run != nil {
		switch run.Outcome {
		case report.OutcomeRunning:
			b = append(b, "run still running")
		default:
			b = append(b, "run "+strings.ReplaceAll(string(run.Outcome), "_", " ")) // "run did not start"
		}
	}
	if n := len(ev.Ranks); n > 1 {
		b = append(b, fmt.Sprintf("%d ranks", n))
	}
	return b
}

// unlogged names the kinds of ev not shown to be logged, in words and by TORCH_LOGS name: "graph breaks and
// recompiles", "graph_breaks or recompiles".
func unlogged(ev report.ReportEvidence) (words, names string) {
	switch {
	case !ev.GraphBreaksLogged && !ev.RecompilesLogged:
		return "graph breaks and recompiles", "graph_breaks or recompiles"
	case !ev.GraphBreaksLogged:
		return "graph breaks", "graph_breaks"
	}
	return "recompiles", "recompiles"
}
