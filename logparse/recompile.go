package logparse

import (
	"slices"
	"strings"
)

// parseRecompile reads "Recompiling function f in /x.py:6" and its guard failures.
func parseRecompile(lines []string) *Recompile {
	var rc Recompile // on the stack: withFailures makes the payload
	if len(lines) == 0 {
		return withFailures(rc, nil, nil)
	}
	first := lines[0]
	if strings.HasPrefix(first, "('Recompiling function ") {
		// 2.1-dev tuple form
		var fs []GuardFailure
		inner := strings.TrimPrefix(first, "('Recompiling function ")
		if q := strings.Index(inner, "'"); q >= 0 {
			head := inner[:q]
			if i := strings.Index(head, " in "); i >= 0 {
				rc.Function, rc.File = head[:i], head[i+4:]
			}
			if g := strings.Index(inner, "guard failure: "); g >= 0 {
				guard := strings.TrimSuffix(strings.TrimSuffix(inner[g+len("guard failure: "):], ")"), "\"")
				fs = append(fs, GuardFailure{Guard: guard})
			}
		}
		return withFailures(rc, fs, nil)
	}
	head := strings.TrimPrefix(first, "Recompiling function ")
	if i := strings.Index(head, " in "); i >= 0 {
		rc.Function = head[:i]
		rc.File, rc.Line = SplitSite(head[i+4:])
	} // else no "in <file>": the header was cut (pasted text), its last token may be part of a name

	// the lines that follow each failure (its user stack) are its Extra, joined by "\n": every failure's pieces are
	// noted, then written into one string that each Extra is a part of (one allocation a record, not one a failure)
	var failures [8]GuardFailure // most records have a few: built here, then copied once at their size
	fs := failures[:0]
	var pieceBuf [16]extraPiece
	pieces := pieceBuf[:0]
	extra := func(t string) { pieces = append(pieces, extraPiece{len(fs) - 1, t}) }
	open := false // the last failure has a piece already
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		switch {
		case t == "" || strings.HasPrefix(t, "triggered by the following guard failure"):
			if g := strings.Index(t, "guard failure: "); g >= 0 {
				fs, open = append(fs, GuardFailure{Guard: t[g+len("guard failure: "):]}), false
			}
		case strings.HasPrefix(t, "guard ") && strings.HasSuffix(t, "failures:"):
		case strings.HasPrefix(t, "- "):
			body := strings.TrimPrefix(t, "- ")
			if cid, guard, ok := SplitFailureID(body); ok {
				fs, open = append(fs, GuardFailure{CompileID: cid, Guard: guard}), false
			} else if b := strings.TrimSpace(body); len(fs) > 0 && (strings.HasPrefix(body, "User stack trace:") || strings.HasPrefix(b, "File \"") || strings.HasPrefix(body, "  ")) {
				if b != "" || open {
					extra(b)
					open = true
				}
			} else {
				fs, open = append(fs, GuardFailure{Guard: b}), false
			}
		default:
			if len(fs) > 0 && (t != "" || open) {
				extra(t)
				open = true
			}
		}
	}
	return withFailures(rc, fs, pieces)
}

// extraPiece is one line of a guard failure's Extra: the failure's index and the line.
type extraPiece struct {
	failure int
	text    string
}

// recompileOf2 is a recompile payload with room for two failures (most records: one a cache entry), made in one
// allocation.
type recompileOf2 struct {
	rc Recompile
	fs [2]GuardFailure
}

// withFailures returns the payload rc with its failures, each Extra the failure's pieces joined by "\n". Every
// string of the payload — the function, the file, each failure's compile id, guard and Extra — is a part of one
// string of its own (one allocation a record: the lines may be views of a buffer the next record reuses, counting.go);
// for two failures at most, the payload is made with room for them (one allocation).
func withFailures(rc Recompile, fs []GuardFailure, pieces []extraPiece) *Recompile {
	n := len(rc.Function) + len(rc.File)
	for _, f := range fs {
		n += len(f.CompileID) + len(f.Guard)
	}
	for i, p := range pieces {
		if i > 0 && p.failure == pieces[i-1].failure {
			n++
		}
		n += len(p.text)
	}
	var b strings.Builder
	b.Grow(n)
	put := func(s string) (from, to int) {
		from = b.Len()
		b.WriteString(s)
		return from, b.Len()
	}
	type span struct{ from, to int }
	var strBuf [2 + 2*8]span
	strs := strBuf[:0]
	from, to := put(rc.Function)
	strs = append(strs, span{from, to})
	from, to = put(rc.File)
	strs = append(strs, span{from, to})
	for _, f := range fs {
		from, to := put(f.CompileID)
		strs = append(strs, span{from, to})
		from, to = put(f.Guard)
		strs = append(strs, span{from, to})
	}
	type extraSpan struct{ failure, from, to int }
	var spanBuf [8]extraSpan
	spans := spanBuf[:0]
	for i, p := range pieces {
		if i > 0 && p.failure == pieces[i-1].failure {
			b.WriteByte('\n')
		} else {
			spans = append(spans, extraSpan{p.failure, b.Len(), 0})
		}
		b.WriteString(p.text)
		spans[len(spans)-1].to = b.Len()
	}
	all := b.String()
	rc.Function, rc.File = all[strs[0].from:strs[0].to], all[strs[1].from:strs[1].to]
	for i := range fs {
		c, g := strs[2+2*i], strs[3+2*i]
		fs[i].CompileID, fs[i].Guard = all[c.from:c.to], all[g.from:g.to]
	}
	for _, sp := range spans {
		fs[sp.failure].Extra = all[sp.from:sp.to]
	}
	if len(fs) > 0 && len(fs) <= 2 {
		x := &recompileOf2{rc: rc}
		copy(x.fs[:], fs)
		x.rc.Failures = x.fs[:len(fs):len(fs)]
		return &x.rc
	}
	out := new(Recompile) // not &rc: that would move rc to the heap on every path
	*out = rc
	if len(fs) > 0 {
		out.Failures = slices.Clone(fs)
	}
	return out
}

// SplitFailureID splits a recompile reason "0/1: guard text" into its compile id and guard.
func SplitFailureID(s string) (string, string, bool) {
	// a compile id starts with a digit or '!' (parseCompileID): the lines of a failure's user stack, most of
	// those read here, are not searched for ": "
	if s == "" || (s[0] != '!' && !isDigit(s[0])) {
		return "", "", false
	}
	c := strings.Index(s, ": ")
	if c <= 0 {
		return "", "", false
	}
	if _, ok := parseCompileID([]byte(s[:c])); !ok {
		return "", "", false
	}
	return s[:c], strings.TrimRight(s[c+2:], " "), true
}
