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

// maxEraMinor is the newest 2.x minor version an Era holds (its bounds are int8s).
const maxEraMinor = 126

// TorchRelease is a torch version's major and minor number: "2.11.0+cu130" is {2, 11}.
type TorchRelease struct{ Major, Minor int }

// ParseTorchVersion reads a torch version ("2.6.0", "2.14.1", "2.11.0+cu130", "2.9.0a0+git…", "2.10.0.dev20250101",
// "3.0.0", "10.1"; a tag's "v2.6"; space around it) as its major and minor number. It is the one reader of a torch
// version: every comparison of versions goes through it (TorchVersionAtLeast, the trace's era, runs.TorchMinor,
// triage.LoggedBy). The patch number and the pre-release and local parts do not count, so 2.9.0a0+git… is 2.9. ok
// is false for "" and for anything that does not start with digits, a dot and digits (at most 4 digits each: a
// longer number is no version, not one that wraps).
func ParseTorchVersion(s string) (TorchRelease, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	major, i := leadingNumber(s)
	if i == 0 || i > 4 || i == len(s) || s[i] != '.' {
		return TorchRelease{}, false
	}
	minor, j := leadingNumber(s[i+1:])
	if j == 0 || j > 4 {
		return TorchRelease{}, false
	}
	return TorchRelease{major, minor}, true
}

// leadingNumber reads the digits s starts with: their value (up to 18 digits) and how many there are.
func leadingNumber(s string) (n, digits int) {
	for digits < len(s) && isDigit(s[digits]) {
		if digits < 18 {
			n = n*10 + int(s[digits]-'0')
		}
		digits++
	}
	return n, digits
}

// AtLeast reports whether the release is major.minor or later.
func (r TorchRelease) AtLeast(major, minor int) bool {
	return r.Major > major || r.Major == major && r.Minor >= minor
}

// Era is the era of a 2.x release (unknown for another major version: Era holds 2.x minor versions only).
func (r TorchRelease) Era() Era {
	if r.Major != 2 || r.Minor < 0 || r.Minor > maxEraMinor {
		return Era{}
	}
	return EraRange(r.Minor, r.Minor)
}

// TorchVersionAtLeast reports whether the torch version s (ParseTorchVersion) is major.minor or later; false when s
// is no version.
func TorchVersionAtLeast(s string, major, minor int) bool {
	r, ok := ParseTorchVersion(s)
	return ok && r.AtLeast(major, minor)
}
