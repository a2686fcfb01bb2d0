package logparse

import (
	"strconv"
	"strings"
)

var hWontConvert = []byte("WON'T CONVERT ")

// parseWontConvert reads Dynamo's record of a frame it gave up on and left to run eager (convert_frame.py, 2.0 to
// 2.14: "WON'T CONVERT f /r.py line 10 " then "due to: " and the traceback of the error it suppressed; W-level
// under suppress_errors, I-level for a recompile-limit hit). The error is the traceback's last exception; the
// frame is the function the header names, at its first line.
func parseWontConvert(lines []string) *CompileError {
	var body []string
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "due to:") {
			body = lines[i+1:]
			break
		}
	}
	e := parseException(body)
	e.Caught, e.Suppressed = true, true
	if len(lines) > 0 {
		if fn, file, line, ok := wontConvertHead(lines[0]); ok {
			e.Frame = Frame{File: file, Line: line, Func: fn}
		}
	}
	return e
}

// wontConvertHead reads "WON'T CONVERT <fn> <file> line <N>" (the file may hold spaces).
func wontConvertHead(l string) (fn, file string, line int, ok bool) {
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), string(hWontConvert)))
	sp := strings.IndexByte(rest, ' ')
	at := strings.LastIndex(rest, " line ")
	if sp <= 0 || at <= sp {
		return "", "", 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(rest[at+len(" line "):]))
	if err != nil {
		return "", "", 0, false
	}
	return rest[:sp], strings.TrimSpace(rest[sp+1 : at]), n, true
}

// LimitHit reports the error Dynamo gives up with at the recompile limit (2.6 "RecompileLimitExceeded:
// cache_size_limit reached", 2.14 "Unsupported: Dynamo recompile limit exceeded"): the limit record counts it.
func (e *CompileError) LimitHit() bool {
	return strings.HasSuffix(e.Class, "RecompileLimitExceeded") || strings.HasSuffix(e.Class, "CacheLimitExceeded") ||
		strings.HasSuffix(e.Class, "exc.Unsupported") && strings.HasPrefix(e.Message, "Dynamo recompile limit exceeded")
}
