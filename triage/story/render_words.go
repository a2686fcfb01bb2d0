package story

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
)

const storyTime = "2006-01-02 15:04:05"

// sessionSpan: "2 runs, 2026-03-01 10:00:00 → 10:07:12".
func sessionSpan(s *Story) string {
	n := len(s.Runs)
	var first, last time.Time
	for _, r := range s.Runs {
		if !r.Start.IsZero() {
			last = r.Start
			if first.IsZero() {
				first = r.Start
			}
		}
	}
	if n == 0 {
		return "no runs"
	}
	if first.IsZero() {
		return report.Plural(n, "run")
	}
	end := last.Format(storyTime)
	if first.Format(time.DateOnly) == last.Format(time.DateOnly) {
		end = last.Format(time.TimeOnly)
	}
	word := "runs"
	if n == 1 {
		word = "run"
	}
	return fmt.Sprintf("%d %s, %s → %s", n, word, first.Format(storyTime), end)
}

// envText: "torch 2.14.1 · Python 3.14.0 · CUDA 12.8 · GPU NVIDIA H200 (sm 9.0) · world size 2 (probe of run 2)".
func envText(e *Env, host bool) string {
	if e == nil {
		return ""
	}
	parts := []string{"torch " + orText(e.Torch, "unknown")}
	if e.Python != "" {
		parts = append(parts, "Python "+e.Python)
	}
	if e.CUDA != "" {
		parts = append(parts, "CUDA "+e.CUDA)
	} else if strings.HasPrefix(e.Source, "probe") {
		parts = append(parts, "CPU build (no CUDA)")
	}
	parts = append(parts, runs.HardwareParts(e.GPU, e.Capability, e.Driver)...)
	if e.WorldSize > 1 {
		parts = append(parts, fmt.Sprintf("world size %d", e.WorldSize))
	}
	if host && e.Host != "" {
		parts = append(parts, "host "+e.Host)
	}
	return strings.Join(parts, " · ") + " (" + e.Source + ")"
}

// trendText: "graph breaks 1 → 0 · recompiles 3 → – → ≥2" over the runs that compiled; a run that did not
// complete (stopped, crashed) counted only what it reached: "≥". Its points are the sparkline's (trendPoint).
func trendText(s *Story) string {
	series := func(name, key string) string {
		var parts []string
		counted := 0
		for i := range s.Runs {
			r := &s.Runs[i]
			if v, _ := r.trendPoint(key); v < 0 {
				parts = append(parts, "–") // not logged, or nothing counted: the run keeps its place
				continue
			}
			parts = append(parts, r.countWord(key).Value) // the table's and the text's count (countWords)
			counted++
		}
		if counted < 2 {
			return ""
		}
		return name + " " + strings.Join(parts, " → ")
	}
	var out []string
	for _, p := range []string{series("graph breaks", CountGraphBreaks), series("recompiles", CountRecompiles)} {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.Format(storyTime)
}

func durText(s float64) string {
	if s <= 0 {
		return "—"
	}
	return time.Duration(s * float64(time.Second)).Round(100 * time.Millisecond).String()
}

func metricText(v *float64) string {
	if v == nil {
		return "—"
	}
	return strconv.FormatFloat(*v, 'g', 6, 64)
}

// processesText names the run's processes as its report does ("ranks 0,1", "single process", "torchrun job, no
// rank prefix"): the ranks of the launcher and the probe too, not only those of the log's prefixes.
func (r *Run) processesText() string {
	if r.an != nil {
		return r.an.Evidence.ProcessesText()
	}
	return ranksText(r.Counts.Ranks)
}

func ranksText(n int) string {
	switch n {
	case 0:
		return "no rank prefix"
	case 1:
		return "1 rank"
	}
	return fmt.Sprintf("%d ranks", n)
}

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// gpuCounts adds the CUDA-graph partitions and re-recordings and the runtime errors where a run logged or had any.
func gpuCounts(c *Counts, lg Logged, runtime string) string {
	out := ""
	switch {
	case lg.PartitionsHidden:
		out += " · partitions not known (graphs from the FX graph cache print none)"
	case lg.CudagraphPartitions || c.CudagraphPartitions > 0:
		out += " · " + report.Plural(c.CudagraphPartitions, "non-cudagraphable partition")
	case lg.PartitionsNotLogged && c.CudagraphRerecords == 0 && !c.CudagraphRerecordsUnknown:
		return out + " · partitions and re-recordings not logged (no TORCH_LOGS cudagraphs)" + runtime
	}
	switch {
	case c.CudagraphRerecordsUnknown:
		out += " · CUDA-graph re-recordings not known (failed checks without their Recording lines)"
	case lg.CudagraphPartitions || c.CudagraphRerecords > 0:
		out += " · " + report.Plural(c.CudagraphRerecords, "CUDA-graph re-recording")
	}
	return out + runtime
}

// runPresetText names a run's preset, and its TORCH_LOGS where they were not the preset's own (check --logs …, a
// relaunch without the names torch rejected): "breaks (TORCH_LOGS graph_breaks,recompiles,+dynamo)".
func runPresetText(r *Run) string {
	s := orText(r.Preset, "(none)")
	if p, ok := runs.PresetByName(r.Preset); ok && r.Preset != "" && r.TorchLogs != strings.Join(p.Logs, ",") {
		s += " (TORCH_LOGS " + orText(r.TorchLogs, "none") + ")"
	}
	return s
}

// trendScripts is how many different scripts the runs of the trend ran (scriptKey): counts of runs of different
// scripts are no trend, one run's program against another's.
func trendScripts(s *Story) int {
	seen := map[string]bool{}
	for i := range s.Runs {
		if r := &s.Runs[i]; r.compiled() {
			seen[scriptKey(r.meta)] = true
		}
	}
	return len(seen)
}

// TrendLabel heads the trend line: "trend" for runs of one script, else "per run (2 scripts, not one trend)".
func (s *Story) TrendLabel() string { return trendLabel(s) }

// trendLabel is Story.TrendLabel.
func trendLabel(s *Story) string {
	if n := trendScripts(s); n > 1 {
		return fmt.Sprintf("per run (%d scripts, not one trend)", n)
	}
	return "trend"
}
