package logparse

import (
	"strconv"
	"strings"
)

// ChildFailure is one failed rank of torchrun's ChildFailedError table (the lines of a KindException record whose
// Error.Summary is set):
//
//	[0]:
//	  time      : 2026-12-07_17:25:55
//	  host      : vm
//	  rank      : 1 (local_rank: 1)
//	  exitcode  : -9 (pid: 21766)  (SIGKILL)
//	  error_file: <N/A>
//	  traceback : Signal 9 (SIGKILL) received by PID 21766
type ChildFailure struct {
	Rank      int
	ExitCode  int
	PID       int
	Signal    string // "SIGKILL": the signal that ended it, from the exitcode's suffix (2.14) or the traceback line (2.6); "" for an exit
	RootCause bool   // listed under "Root Cause (first observed failure)"
	Traceback string // the entry's traceback line ("Signal 9 (SIGKILL) received by PID 21766", "To enable traceback see: …")
}

// ChildFailures reads the failed ranks of torchrun's ChildFailedError table from a record's lines; nil when they
// hold no table.
func ChildFailures(lines []string) []ChildFailure {
	var out []ChildFailure
	root := false
	cur := -1
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "Root Cause"):
			root = true
			continue
		case strings.HasPrefix(t, "Failures:"):
			root = false
			continue
		case strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]:"):
			out = append(out, ChildFailure{Rank: -1, RootCause: root})
			cur = len(out) - 1
			continue
		}
		if cur < 0 {
			continue
		}
		key, val, ok := strings.Cut(t, ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		f := &out[cur]
		switch key {
		case "rank":
			f.Rank = leadingInt(val, -1)
		case "exitcode":
			f.ExitCode = leadingInt(val, 0)
			if i := strings.Index(val, "(pid: "); i >= 0 {
				f.PID = leadingInt(val[i+len("(pid: "):], 0)
			}
			if i := strings.LastIndex(val, "(SIG"); i >= 0 && strings.HasSuffix(val, ")") {
				f.Signal = val[i+1 : len(val)-1]
			}
		case "traceback":
			f.Traceback = val
			if f.Signal == "" && strings.HasPrefix(val, "Signal ") {
				if i, j := strings.IndexByte(val, '('), strings.IndexByte(val, ')'); i >= 0 && j > i {
					f.Signal = val[i+1 : j]
				}
			}
		}
	}
	return out
}

// leadingInt is the integer a string starts with (a sign allowed), or def.
func leadingInt(s string, def int) int {
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || end == 0 && s[end] == '-') {
		end++
	}
	if n, err := strconv.Atoi(s[:end]); err == nil {
		return n
	}
	return def
}
