package demo

import (
	"bytes"
	"context"
	"io"
	"time"
)

// MaxGap caps the pause between two lines at recorded speed: the recordings
// hold waits of ten seconds and more (rendezvous, inductor), which teach a
// newcomer nothing.
const MaxGap = 1500 * time.Millisecond

// player writes lines to two streams, pausing as the recording did.
type player struct {
	stdout, stderr io.Writer
	speed          float64 // from TORCHTRIAGE_DEMO_SPEED; 2 = twice as fast
	sleep          func(context.Context, time.Duration) error
}

// delays returns, per line, the pause before it at recorded speed: the
// difference between its time stamp and the latest earlier one, 0 when
// negative (interleaved ranks) or when the line has no stamp, at most MaxGap.
func delays(lines []line) []time.Duration {
	out := make([]time.Duration, len(lines))
	var last time.Time
	seen := false
	for i, l := range lines {
		if !l.stamped {
			continue
		}
		if seen {
			out[i] = min(max(l.at.Sub(last), 0), MaxGap)
		}
		if !seen || l.at.After(last) {
			last, seen = l.at, true
		}
	}
	return out
}

// play writes the kept lines in order. The pause before a kept line is the
// sum of the pauses of the lines since the previous kept one (at most
// MaxGap), times pace, divided by speed. Consecutive lines for one stream
// with no pause between them go out in one write. It stops at the first
// write error or when ctx is done, and returns why.
func (p *player) play(ctx context.Context, lines []line, keep func(line) bool, pace float64) error {
	gaps := delays(lines)
	var buf bytes.Buffer
	var bufErr bool
	flush := func() error {
		if buf.Len() == 0 {
			return nil
		}
		w := p.stdout
		if bufErr {
			w = p.stderr
		}
		_, err := w.Write(buf.Bytes())
		buf.Reset()
		return err
	}
	var pending time.Duration
	for i, l := range lines {
		pending += gaps[i]
		if !keep(l) {
			continue
		}
		wait := time.Duration(float64(min(pending, MaxGap)) * pace / p.speed)
		pending = 0
		if wait > 0 || (buf.Len() > 0 && l.stderr != bufErr) {
			if err := flush(); err != nil {
				return err
			}
		}
		if wait > 0 {
			if err := p.sleep(ctx, wait); err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		bufErr = l.stderr
		buf.WriteString(l.text)
		buf.WriteByte('\n')
	}
	return flush()
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
