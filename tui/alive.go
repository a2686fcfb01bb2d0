package tui

import (
	"fmt"
	"time"

	"github.com/torchtriage/torchtriage/triage/session"
)

// What a run printed so far, counted from its log as batches arrive (Update), so that the main screen shows the
// program is alive while nothing is found yet.

// output is a run's output so far: lines, bytes, the last line and when output last arrived.
type output struct {
	counted int // log lines counted (the log only grows)
	lines   int
	bytes   int
	last    string    // the last non-empty line
	at      time.Time // when the last new line arrived (zero: none yet)
}

// count takes the lines the log has beyond those counted, at now.
func (o *output) count(log session.Log, now time.Time) {
	if len(log.Lines) < o.counted { // a new log (relaunch into the same view): start again
		*o = output{}
	}
	for _, l := range log.Lines[o.counted:] {
		if l.Header {
			continue
		}
		o.lines++
		o.bytes += len(l.Text) + 1
		if l.Text != "" {
			o.last = l.Text
		}
		o.at = now
	}
	o.counted = len(log.Lines)
}

// aliveLines say that a live run with nothing found yet is alive: what it printed, how much and how long ago.
func (m *Model) aliveLines(r *runView) []string {
	now := m.now()
	o := r.out
	if o.lines == 0 {
		return []string{fmt.Sprintf("Running for %s: no output yet.", clock(now.Sub(r.start)))}
	}
	head := fmt.Sprintf("Running for %s · alive: %s, %s so far · last output %s ago", clock(now.Sub(r.start)),
		plural(o.lines, "line"), byteSize(o.bytes), ago(now.Sub(o.at)))
	return []string{head, "last line: " + clean(o.last)}
}

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
