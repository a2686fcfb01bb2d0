package demo

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// line is one recorded line and what its prefix says.
type line struct {
	text    string
	stderr  bool      // has a glog / C++ / gloo / [rankN]: log prefix
	level   byte      // glog level letter of a Python torch log line (V I W E C); 0 otherwise
	at      time.Time // from the prefix, when it has a time stamp
	stamped bool
}

var (
	// Python torch logs: [rankN]:V1121 07:45:29.809000 31643 path:line] ...
	glogPrefix = regexp.MustCompile(`^(?:\[rank\d+\]:)?([VIWEC])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{1,9}) \d+ \S+:\d+\]`)
	// c10 C++ logs: [W1121 07:45:17.692129966 ProcessGroupGloo.cpp:727] ...
	cppPrefix = regexp.MustCompile(`^\[([VIWEC])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{1,9}) \S+:\d+\]`)
	// gloo: [./gloo/transport/tcp/context.cc:243] INFO ...; torch's per-rank traceback lines.
	otherPrefix = regexp.MustCompile(`^(?:\[[^\]\s]+\.(?:cc|cpp|c|h|hpp):\d+\] |\[rank\d+\]: )`)
)

// parseLines splits a recording at "\n" (a final newline ends the last line)
// and classifies every line.
func parseLines(data []byte) []line {
	if len(data) == 0 {
		return nil
	}
	raw := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	lines := make([]line, len(raw))
	for i, t := range raw {
		l := line{text: t}
		if m := glogPrefix.FindStringSubmatch(t); m != nil {
			l.stderr, l.level = true, m[1][0]
			l.at, l.stamped = stamp(m[2:])
		} else if m := cppPrefix.FindStringSubmatch(t); m != nil {
			l.stderr = true
			l.at, l.stamped = stamp(m[2:])
		} else if otherPrefix.MatchString(t) {
			l.stderr = true
		}
		lines[i] = l
	}
	return lines
}

// stamp turns month, day, hour, minute, second, fraction into a time in a
// fixed leap year (glog prints no year).
func stamp(f []string) (time.Time, bool) {
	var n [6]int
	for i := 0; i < 6; i++ {
		s := f[i]
		if i == 5 {
			s = (s + "000000000")[:9]
		}
		v, err := strconv.Atoi(s)
		if err != nil {
			return time.Time{}, false
		}
		n[i] = v
	}
	if n[0] < 1 || n[0] > 12 || n[1] < 1 || n[1] > 31 {
		return time.Time{}, false
	}
	return time.Date(2000, time.Month(n[0]), n[1], n[2], n[3], n[4], n[5], time.UTC), true
}

// plain: a line the user's program printed (no log prefix).
func (l line) plain() bool { return !l.stderr }

// notDebug: every line except Python torch logs at debug or info level.
func (l line) notDebug() bool { return l.level != 'V' && l.level != 'I' }
