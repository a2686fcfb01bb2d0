package logparse

import (
	"strconv"
	"strings"
)

// Era is the range of torch 2.x minor versions whose log format a record shows. The zero value is unknown.
// Evidence from many records is intersected; see docs/torch-log-formats.md for which feature belongs to which era.
type Era struct {
	lo, hi int8 // minor version + 1, so that the zero value means "no evidence"
}

// EraRange returns the era of torch 2.lo … 2.hi.
func EraRange(lo, hi int) Era { return Era{int8(lo + 1), int8(hi + 1)} }

// Known reports whether there is any evidence.
func (e Era) Known() bool { return e.hi > 0 }

// Merge intersects two eras; when they contradict, the later evidence wins.
func (e Era) Merge(o Era) Era {
	if !o.Known() {
		return e
	}
	if !e.Known() {
		return o
	}
	lo, hi := max(e.lo, o.lo), min(e.hi, o.hi)
	if lo > hi {
		if o.lo > e.hi {
			return o
		}
		return e
	}
	return Era{lo, hi}
}

// String renders "2.14", "2.6–2.7" or "" when unknown.
func (e Era) String() string {
	if !e.Known() {
		return ""
	}
	lo := "2." + strconv.Itoa(int(e.lo-1))
	if e.lo == e.hi {
		return lo
	}
	return lo + "–2." + strconv.Itoa(int(e.hi-1))
}

// eraEvidence reads the format features of one record (torch-log-formats.md §2–§5).
func eraEvidence(b *builder) Era {
	r := b.rec
	var e Era
	switch b.style {
	case styleDate:
		if b.prefixed > 1 || r.CompileID.Valid() {
			e = e.Merge(EraRange(1, 2))
		} else if len(r.Lines) > 1 {
			e = e.Merge(EraRange(0, 0))
		}
	case styleGlog:
		if r.PID > 1<<32 { // a thread id, not a pid
			e = e.Merge(EraRange(3, 4))
		}
	}
	if r.CompileID.Autograd >= 0 {
		e = e.Merge(EraRange(14, 14))
	}
	switch r.Kind {
	case KindGraphBreak:
		g := r.Break
		switch {
		case g.GBID != "":
			e = e.Merge(EraRange(9, 14))
		case g.GBType != "":
			e = e.Merge(EraRange(8, 14))
		case b.style == styleGlog && len(r.Lines) > 0 && len(r.Lines[0]) > 13 && r.Lines[0][:13] == "Graph break: " && g.Variant == BreakFull:
			e = e.Merge(EraRange(3, 5))
		case len(r.Lines) > 0 && strings.Contains(r.Lines[0], " in user code at ") && g.Reason != "":
			e = e.Merge(EraRange(6, 7))
		}
	case KindRecompile:
		for _, f := range r.Recompile.Failures {
			if f.CompileID != "" {
				e = e.Merge(EraRange(5, 14))
			}
			if containsStr(f.Guard, "L['") {
				e = e.Merge(EraRange(0, 13))
			}
			if containsStr(f.Extra, "User stack trace") {
				// not in 2.6; printed by 2.11 (torch-2.11-cuda/g07_gb_recompile_mix) and 2.14.1; 2.7–2.10 not seen
				e = e.Merge(EraRange(7, 14))
			}
		}
	case KindLimitHit:
		switch r.Limit.Limit {
		case "cache_size_limit", "accumulated_cache_size_limit":
			e = e.Merge(EraRange(0, 6))
		case "recompile_limit", "accumulated_recompile_limit":
			e = e.Merge(EraRange(7, 14))
		}
	}
	return e
}

func containsStr(s, sub string) bool { return strings.Contains(s, sub) }

// NewestMinor is the newest torch 2.x minor version whose log format this package knows: a format seen up to it
// may well go on in later versions.
const NewestMinor = 14

// Bounds returns the era's minor versions (ok false when unknown).
func (e Era) Bounds() (lo, hi int, ok bool) { return int(e.lo) - 1, int(e.hi) - 1, e.Known() }
