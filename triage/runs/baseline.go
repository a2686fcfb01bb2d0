package runs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// KeepThreshold is the seed rule: keep torch.compile only when it is at
// least 5% better than eager.
const KeepThreshold = 0.05

// metricValue is the number of a match (its first group, else all of it).
func metricValue(m [][]byte) (float64, bool) {
	raw := m[0]
	if len(m) > 1 {
		raw = m[1]
	}
	s := strings.NewReplacer(",", "", "_", "").Replace(strings.TrimSpace(string(raw)))
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// maxMetricLine bounds what the metric is matched of one line: a longer line is matched on its first
// maxMetricLine bytes.
const maxMetricLine = 1 << 20

// MetricStats is what --metric read from a run's output: the median of the values its lines matched after
// warm-up, and how many lines that was.
type MetricStats struct {
	Value   float64 // the median of the values after warm-up
	Matches int     // lines matched with a number
	Warmup  int     // the first of them, left out as warm-up (MetricWarmup)
}

// Used is how many matches the median was taken of.
func (s MetricStats) Used() int { return s.Matches - s.Warmup }

// MetricWarmup is how many of n matches are warm-up: the first fifth (at least the first one when there are
// two or more: the first step compiles); none of a single match, which is all there is.
func MetricWarmup(n int) int {
	if n < 2 {
		return 0
	}
	return max(1, n/5)
}

// MetricOfFile reads the metric of a file (a run's combined.log, which may be gigabytes: read as it is matched,
// never held whole): the number captured by re's first group (the whole match when re has no group) of each
// line re matches, the first MetricWarmup of them left out, and the median of the rest. Thousands separators
// ("1,234.5", "1_234") are accepted; a match that is no number is not counted.
func MetricOfFile(re *regexp.Regexp, path string) (MetricStats, bool, error) {
	if re == nil {
		return MetricStats{}, false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return MetricStats{}, false, err
	}
	defer f.Close()
	return metricOf(re, f)
}

// metricOf matches re line by line (a line on its first maxMetricLine bytes): the median of the values after
// warm-up.
func metricOf(re *regexp.Regexp, r io.Reader) (MetricStats, bool, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var values []float64
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line) < maxMetricLine {
			line = append(line, chunk[:min(len(chunk), maxMetricLine-len(line))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if m := re.FindSubmatch(bytes.TrimRight(line, "\r\n")); m != nil {
			if v, ok := metricValue(m); ok {
				values = append(values, v)
			}
		}
		line = line[:0]
		if err == io.EOF {
			break
		}
		if err != nil {
			return MetricStats{}, false, err
		}
	}
	if len(values) == 0 {
		return MetricStats{}, false, nil
	}
	st := MetricStats{Matches: len(values), Warmup: MetricWarmup(len(values))}
	rest := slices.Clone(values[st.Warmup:])
	slices.Sort(rest)
	if n := len(rest); n%2 == 1 {
		st.Value = rest[n/2]
	} else {
		st.Value = (rest[n/2-1] + rest[n/2]) / 2
	}
	return st, true, nil
}

// Comparison is the verdict of a compiled run against its eager baseline.
type Comparison struct {
	EagerWallS    float64 // wall time of each run, seconds (compile time included)
	CompiledWallS float64
	WallGain      float64 // (eager - compiled) / eager: > 0 means compiled finished sooner

	HasMetric      bool // both runs have a metric
	EagerMetric    float64
	CompiledMetric float64
	HigherIsBetter bool
	MetricGain     float64 // relative improvement of compiled over eager, > 0 = better

	// Basis is "metric", "wall time less compile time" (an estimate: whole-run wall times hold start-up, import
	// and warm-up, not the step times the checklist asks for) or "" when no comparison was possible.
	Basis        string
	KeepCompile  bool   // compiled is >= 5% better on Basis
	Inconclusive bool   // no metric and no measured compile time: nothing to compare steady state with
	Verdict      string // one line
}

// CompareBaseline compares a compiled run with its eager baseline: on the
// metric when both runs have one; else on wall time less the compile time the
// probe measured (compileS > 0); else it is inconclusive (a micro-repro's
// wall time is mostly compile time and always "prefers eager"). Compile is
// kept only when it is at least 5% better.
func CompareBaseline(eager, compiled Meta, higherIsBetter bool, compileS float64) Comparison {
	c := Comparison{EagerWallS: eager.DurationS, CompiledWallS: compiled.DurationS, HigherIsBetter: higherIsBetter}
	if c.EagerWallS > 0 {
		c.WallGain = (c.EagerWallS - c.CompiledWallS) / c.EagerWallS
	}
	if !succeeded(eager) {
		c.Verdict = "no comparison: the eager baseline did not finish cleanly (" + exitSummary(eager) + ")"
		return c
	}
	if !succeeded(compiled) {
		c.Verdict = "prefer eager: the compiled run did not finish cleanly (" + exitSummary(compiled) + ")"
		return c
	}
	if eager.Metric != nil && compiled.Metric != nil {
		c.HasMetric, c.EagerMetric, c.CompiledMetric = true, *eager.Metric, *compiled.Metric
		if c.EagerMetric == 0 {
			c.Verdict = "no comparison: the eager metric is 0"
			return c
		}
		diff := c.CompiledMetric - c.EagerMetric
		if !higherIsBetter {
			diff = -diff
		}
		c.MetricGain = diff / math.Abs(c.EagerMetric)
		c.Basis = "metric"
		c.KeepCompile = c.MetricGain >= KeepThreshold
		c.Verdict = fmt.Sprintf("%s: metric %s compiled vs %s eager (%s%s)", keepWord(c.KeepCompile),
			fmtNum(c.CompiledMetric), fmtNum(c.EagerMetric), gainText(c.MetricGain), metricBasis(eager, compiled))
		return c
	}
	if c.EagerWallS <= 0 || compileS <= 0 || compileS >= c.CompiledWallS {
		c.Inconclusive = true
		c.Verdict = "inconclusive: wall time includes compile time; give --metric REGEX (e.g. 'step_ms: ([0-9.]+)')"
		return c
	}
	steady := c.CompiledWallS - compileS
	c.WallGain = (c.EagerWallS - steady) / c.EagerWallS
	c.Basis = "wall time less compile time"
	c.KeepCompile = c.WallGain >= KeepThreshold
	// no keep/prefer words and no percentage: start-up and import dominate a micro-repro's wall time, which varies
	// more than 5% between two runs of the same work, and so does the compile time taken off it ("219.4% worse" read
	// as a measurement)
	c.Verdict = fmt.Sprintf("no verdict without --metric: an estimate from whole-run wall times (start-up, import, warm-up and a compile time that varies run to run in them), no step times: %.2fs compiled (%.2fs wall less %.2fs compile, measured by the probe) vs %.2fs eager; --metric REGEX times steps",
		steady, c.CompiledWallS, compileS, c.EagerWallS)
	return c
}

// metricBasis says what each side's metric is the median of ("; medians of 8 and 8 matches after 2 and 2
// warm-up"), "" for runs stored before the count was kept.
func metricBasis(eager, compiled Meta) string {
	if eager.MetricMatches == 0 || compiled.MetricMatches == 0 {
		return ""
	}
	if eager.MetricMatches == compiled.MetricMatches && eager.MetricWarmup == compiled.MetricWarmup {
		return fmt.Sprintf("; each the median of %d matches after %d warm-up", eager.MetricMatches-eager.MetricWarmup, eager.MetricWarmup)
	}
	return fmt.Sprintf("; medians of %d compiled and %d eager matches after %d and %d warm-up",
		compiled.MetricMatches-compiled.MetricWarmup, eager.MetricMatches-eager.MetricWarmup, compiled.MetricWarmup, eager.MetricWarmup)
}

func succeeded(m Meta) bool {
	return m.State == StateExited && m.ExitCode != nil && *m.ExitCode == 0
}

func keepWord(keep bool) string {
	if keep {
		return "keep compile"
	}
	return "prefer eager"
}

func gainText(g float64) string {
	word := "better"
	if g < 0 {
		word = "worse"
	}
	s := fmt.Sprintf("%.1f%% %s", math.Abs(g)*100, word)
	if g < KeepThreshold {
		s += fmt.Sprintf(", needs >= %.0f%% better", KeepThreshold*100)
	}
	return s
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
