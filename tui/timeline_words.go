package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// The timeline's words: the report's counts, why nothing is placed, which kinds are counted but not placed and
// when the last recompile came. Facts come from the analysis and the session's timeline, never recounted here.

// tlKindWords name the timeline's record kinds as the report's counts line does.
var tlKindWords = map[logparse.Kind]string{logparse.KindGraphBreak: "graph breaks", logparse.KindRecompile: "recompiles",
	logparse.KindLimitHit: "limit hits", logparse.KindCudagraphSkip: "cudagraph skips",
	logparse.KindCompileError: "compile errors"}

// timelineCounts is the report's counts line, wrapped between its items to w cells (nothing before the first analysis).
func (m *Model) timelineCounts(s *snapshot, w int) []string {
	if s.analysis == nil {
		return nil
	}
	var out []string
	line := ""
	for _, it := range s.analysis.CountsItems() {
		switch {
		case line == "":
			line = it
		case cells.Width(line)+3+cells.Width(it) <= w-1:
			line += " · " + it
		default:
			out, line = append(out, " "+line), it
		}
	}
	return append(out, " "+line)
}

// dimWrap is s in dim lines of at most w cells, each after a space.
func (m *Model) dimWrap(s string, w int) []string {
	out := hang(s, max(w-1, 10), " ", " ")
	for i, l := range out {
		out[i] = m.th.dim.Render(l)
	}
	return out
}

// nothingToPlace says why the timeline has no event to draw, "" when it has some (or a live run, whose stalls and
// wall time it draws).
func (m *Model) nothingToPlace(r *runView) string {
	s := r.snap
	if len(s.timeline) > 0 {
		return ""
	}
	if a := s.analysis; a != nil && !a.Evidence.TorchSeen {
		switch {
		case m.opt.mode != modeOpen && !r.done:
			return "nothing to place yet: no torch output so far"
		case m.opt.mode != modeOpen:
			return "nothing to place: the run printed no torch output"
		case len(a.Report.Inputs) > 1:
			return fmt.Sprintf("nothing to place: the %d inputs hold no torch output", len(a.Report.Inputs))
		}
		return "nothing to place: the input holds no torch output"
	}
	if m.opt.mode != modeOpen {
		return ""
	}
	if u := untimedLine(s.untimed); u != "" {
		return "nothing to place on the timeline: " + strings.TrimPrefix(u, "not placed: ")
	}
	return "nothing to place on the timeline: no graph break, recompile, limit hit, CUDA-graph skip or compile error record in the input"
}

// untimedLine names the kinds counted but not placed: "not placed: compile errors — their records carry no time
// stamp (a Python traceback or warning prints none)"; "" when every record had one.
func untimedLine(kinds []logparse.Kind) string {
	if len(kinds) == 0 {
		return ""
	}
	names := make([]string, 0, len(kinds))
	for _, k := range kinds {
		names = append(names, tlKindWords[k])
	}
	return "not placed: " + strings.Join(names, ", ") + " — their records carry no time stamp (a Python traceback or warning prints none)"
}

// burstLine says when the last recompile or limit hit on the timeline came: a late one tells a recompile after
// warm-up. "" when none is placed (the counts line says how many there were).
func burstLine(s *snapshot, span time.Duration) string {
	last, n := time.Duration(0), 0
	for _, e := range s.timeline {
		if e.kind == tlRecompile || e.kind == tlLimit {
			last = max(last, e.at)
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" the last recompile or limit hit at %s of %s", fmtDur(last), fmtDur(span))
}

// noCompileTime says why the timeline shows no compile time: what the probe found when it ran.
func noCompileTime(r *runView) string {
	if a := r.snap.analysis; a != nil {
		if why := a.Evidence.NothingCompiled(); why != "" {
			return "no compile time: " + why
		}
	}
	if len(r.probes) > 0 {
		return "no compile time: the probe recorded none"
	}
	return "compile time appears here with a TORCH_TRACE (preset trace or distributed) or when the probe ran"
}
