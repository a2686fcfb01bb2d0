package runs

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// extractMetric is MetricOfFile's matching on bytes.
func extractMetric(re *regexp.Regexp, out []byte) (float64, bool) {
	st, ok, _ := metricOf(re, bytes.NewReader(out))
	return st.Value, ok
}

func TestExtractMetric(t *testing.T) {
	out := []byte("warmup\nthroughput: 101.5 it/s\nthroughput: 1,234.75 it/s\ndone\n")
	re := regexp.MustCompile(`throughput: ([\d.,]+) it/s`)
	if v, ok := extractMetric(re, out); !ok || v != 1234.75 {
		t.Errorf("after the warm-up match = %v, %v; want 1234.75", v, ok)
	}
	if v, ok := extractMetric(regexp.MustCompile(`\d+\.\d+e-\d+`), []byte("loss 3.5e-03")); !ok || v != 0.0035 {
		t.Errorf("no group: %v %v", v, ok)
	}
	for _, c := range []struct {
		re  string
		out string
	}{{`latency: (\S+)`, "latency: n/a"}, {`latency: (\d+)`, "nothing here"}} {
		if v, ok := extractMetric(regexp.MustCompile(c.re), []byte(c.out)); ok {
			t.Errorf("%q on %q = %v", c.re, c.out, v)
		}
	}
	if _, ok, _ := MetricOfFile(nil, "no such file"); ok {
		t.Error("nil regexp matched")
	}
}

func run(dur float64, code int, metric *float64) Meta {
	return Meta{State: StateExited, ExitCode: &code, DurationS: dur, Metric: metric}
}

func f(v float64) *float64 { return &v }

func TestCompareBaseline(t *testing.T) {
	cases := []struct {
		name             string
		eager, comp      Meta
		higher           bool
		compileS         float64
		keep             bool
		basis, inVerdict string
	}{
		{"throughput 10% better", run(10, 0, f(100)), run(12, 0, f(110)), true, 0, true, "metric", "keep compile"},
		{"throughput 4% better", run(10, 0, f(100)), run(9, 0, f(104)), true, 0, false, "metric", "needs >= 5% better"},
		{"throughput exactly 5%", run(10, 0, f(100)), run(9, 0, f(105)), true, 0, true, "metric", "5.0% better"},
		{"latency 20% lower", run(10, 0, f(50)), run(10, 0, f(40)), false, 0, true, "metric", "20.0% better"},
		{"latency higher", run(10, 0, f(50)), run(10, 0, f(55)), false, 0, false, "metric", "10.0% worse"},
		// a micro-repro's wall time is mostly compile time: without a metric or a measured compile time it is
		// inconclusive, never "prefer eager"
		{"wall time only", run(10, 0, nil), run(9, 0, nil), true, 0, false, "", "inconclusive: wall time includes compile time; give --metric"},
		{"wall time slower", run(10, 0, nil), run(30, 0, f(1)), true, 0, false, "", "inconclusive"},
		// whole-run wall times hold start-up, import and warm-up: an estimate, and said to be one
		// and no verdict: keep/prefer words on it read as one (an exploratory live run: "needs work: prefer eager" on
		// 0.26 s of 4.7 s of start-up and import, 2.7× apart between two runs of the same work)
		{"wall time less compile time", run(10, 0, nil), run(30, 0, nil), true, 21, true, "wall time less compile time", "no verdict without --metric: an estimate from whole-run wall times (start-up, import, warm-up and a compile time that varies run to run in them), no step times: 9.00s compiled (30.00s wall less 21.00s compile, measured by the probe) vs 10.00s eager"},
		{"compile time the whole run", run(10, 0, nil), run(30, 0, nil), true, 30, false, "", "inconclusive"},
		{"compiled crashed", run(10, 0, f(100)), run(1, 1, nil), true, 0, false, "", "did not finish cleanly"},
		{"eager crashed", run(1, 2, nil), run(10, 0, nil), true, 0, false, "", "no comparison"},
	}
	for _, c := range cases {
		got := CompareBaseline(c.eager, c.comp, c.higher, c.compileS)
		if got.Basis == "wall time less compile time" && (strings.Contains(got.Verdict, "prefer eager") || strings.Contains(got.Verdict, "keep compile") || strings.Contains(got.Verdict, "needs >=") || strings.Contains(got.Verdict, "%")) {
			t.Errorf("%s: a verdict on an estimate: %q", c.name, got.Verdict)
		}
		if got.KeepCompile != c.keep || got.Basis != c.basis || !strings.Contains(got.Verdict, c.inVerdict) {
			t.Errorf("%s: keep %v basis %q verdict %q", c.name, got.KeepCompile, got.Basis, got.Verdict)
		}
		if strings.Contains(got.Verdict, "\n") {
			t.Errorf("%s: verdict is not one line", c.name)
		}
	}
}

// The metric is the median of the matches after warm-up (the first fifth, at least the first), not the last
// line's value: a last step slowed by a recompile or the exit read as the run's speed.
func TestMetricIsTheMedianAfterWarmup(t *testing.T) {
	var out strings.Builder
	for _, ms := range []string{"950.0", "12.0", "10.0", "11.0", "10.5", "9.5", "10.2", "10.1", "9.9", "10.0", "30.0"} {
		out.WriteString("step_ms: " + ms + "\n")
	}
	st, ok, _ := metricOf(regexp.MustCompile(`step_ms: ([0-9.]+)`), strings.NewReader(out.String()))
	// 11 matches: the first 2 are warm-up; the median of the other 9 (9.5 9.9 10 10 10.1 10.2 10.5 11 30) is 10.1
	if !ok || st.Value != 10.1 || st.Matches != 11 || st.Warmup != 2 || st.Used() != 9 {
		t.Errorf("got %+v %v, want the median 10.1 of 9 matches after 2 warm-up", st, ok)
	}
	one, ok, _ := metricOf(regexp.MustCompile(`step_ms: ([0-9.]+)`), strings.NewReader("step_ms: 7\n"))
	if !ok || one.Value != 7 || one.Warmup != 0 {
		t.Errorf("one match: %+v", one)
	}
	e, c := run(10, 0, f(20)), run(10, 0, f(10))
	e.MetricMatches, e.MetricWarmup, c.MetricMatches, c.MetricWarmup = 10, 2, 10, 2
	if v := CompareBaseline(e, c, false, 0).Verdict; !strings.Contains(v, "each the median of 8 matches after 2 warm-up") {
		t.Errorf("verdict %q does not say what the metric is", v)
	}
}
