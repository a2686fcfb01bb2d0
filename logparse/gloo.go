package logparse

import (
	"bytes"
	"strconv"
	"strings"
)

// GlooSize is gloo's size check of a collective failing: a peer sent more bytes than this process's collective
// expects, and the process aborts (std::terminate, SIGABRT, no Python traceback). 2.14.1:
//
//	terminate called after throwing an instance of 'gloo::EnforceNotMet'
//	  what():  [enforce fail at ./gloo/transport/tcp/pair.cc:456] op.preamble.length <= op.nbytes. 48 vs 32. Received data size doesn't match expected size. Is there a distributed collective mismatch in your code?
//
// 2.6 ends the what() line after "48 vs 32" (pair.cc:446). The ranks called collectives of different sizes (shapes
// or dtypes), or different collectives. A record of it is KindOther (no process's Python error: counting leaves it
// out) with Error holding it: Class "gloo::EnforceNotMet", Message the what() words, GlooSize the bytes.
type GlooSize struct {
	Received int    // op.preamble.length: the bytes the peer sent
	Expected int    // op.nbytes: the bytes this process's collective expects
	At       string // gloo's source place, "./gloo/transport/tcp/pair.cc:456"
}

var (
	hGlooTerminate = []byte("terminate called after throwing an instance of 'gloo::")
	glooSizeCheck  = "op.preamble.length <= op.nbytes. "
)

// glooException reports std::terminate's line for an uncaught exception of gloo's C++ (gloo::EnforceNotMet).
func glooException(b []byte) bool { return bytes.HasPrefix(b, hGlooTerminate) }

// glooAbort reads the lines of std::terminate's report of a gloo exception: its class, the what() message and,
// for the size check, the bytes. ok false when the lines are not one.
func glooAbort(lines []string) (*CompileError, bool) {
	if len(lines) == 0 || !glooException([]byte(lines[0])) {
		return nil, false
	}
	cls := strings.TrimPrefix(lines[0], string(hTerminate))
	if i := strings.IndexByte(cls, '\''); i >= 0 {
		cls = cls[:i]
	}
	e := &CompileError{Class: cls, RootCauseRank: -1}
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, string(hWhat)) {
			continue
		}
		e.Message = strings.TrimSpace(strings.TrimPrefix(t, string(hWhat)))
		e.GlooSize = glooSize(e.Message)
		break
	}
	return e, true
}

// glooSize reads "[enforce fail at ./gloo/transport/tcp/pair.cc:456] op.preamble.length <= op.nbytes. 48 vs 32…";
// nil for another check.
func glooSize(msg string) *GlooSize {
	i := strings.Index(msg, glooSizeCheck)
	if i < 0 {
		return nil
	}
	rest := msg[i+len(glooSizeCheck):]
	got, rest, ok := strings.Cut(rest, " vs ")
	if !ok {
		return nil
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	r, err1 := strconv.Atoi(got)
	x, err2 := strconv.Atoi(rest[:end])
	if err1 != nil || err2 != nil {
		return nil
	}
	g := &GlooSize{Received: r, Expected: x}
	if a, ok := strings.CutPrefix(msg, "[enforce fail at "); ok {
		if j := strings.IndexByte(a, ']'); j >= 0 {
			g.At = a[:j]
		}
	}
	return g
}
