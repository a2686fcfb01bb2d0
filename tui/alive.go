package tui

import (
	"fmt"
	"time"
)

// What a run printed so far (the session counts it: session.OutputStats), so that the main screen shows the
// program is alive while nothing is found yet.

// aliveLines say that a live run with nothing found yet is alive: what it printed, how much and how long ago.
func (m *Model) aliveLines(r *runView) []string {
	now := m.now()
	o := r.out
	if o.Lines == 0 {
		return []string{fmt.Sprintf("Running for %s: no output yet.", clock(now.Sub(r.start)))}
	}
	head := fmt.Sprintf("Running for %s · alive: %s, %s so far · %s", clock(now.Sub(r.start)),
		plural(o.Lines, "line"), byteSize(o.Bytes), m.noOutputText(r))
	return []string{head, "last line: " + clean(o.LastLine)}
}

// quiet is how long the run has printed nothing: while stalled, by the watchdog's clock (since the program's own
// last output: a stack dump torchtriage asked for is not the program's), else since the last output the session
// got. The stall banner, the header and the alive line read this one clock, in whole seconds.
func (m *Model) quiet(r *runView) time.Duration {
	since := r.out.LastAt
	if r.stalled {
		since = r.stallSince
	}
	return max(m.now().Sub(since), 0).Truncate(time.Second)
}

// noOutputText is "no output for 42s", the one wording of quiet.
func (m *Model) noOutputText(r *runView) string { return "no output for " + ago(m.quiet(r)) }

// byteSize is "812 B", "3.1 KB", "4.2 MB".
func byteSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1024/1024)
}

// ago is "3s", "2m10s".
func ago(d time.Duration) string {
	d = max(d, 0).Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return d.String()
}
