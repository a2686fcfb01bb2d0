package compare

import (
	"cmp"
	"sort"
	"strings"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// settings lists the versions and env/config settings that differ (probe files of the lowest rank of each
// side; the report's torch version when no probe says). A variable the tool set in each run to a path in that
// run's own directory (TORCH_TRACE: toolA, toolB are what the tool added to each) is no difference.
func (res *Result) settings(pa, pb []report.ProcessInfo, ra, rb *report.Report, toolA, toolB map[string]string) {
	va, vb := firstProbe(pa), firstProbe(pb)
	if va == nil || vb == nil {
		ta, tb := ptrStr(ra.TorchVersion), ptrStr(rb.TorchVersion)
		if va != nil {
			ta = va.Torch
		}
		if vb != nil {
			tb = vb.Torch
		}
		if ta != tb && ta != "" && tb != "" {
			res.Versions = append(res.Versions, Change{Key: "version.torch", A: ta, B: tb, Cache: true})
		}
		side := "A has no probe file"
		switch {
		case va == nil && vb == nil:
			side = "neither side has a probe file"
		case vb == nil:
			side = "B has no probe file"
		}
		res.settingsWhy = append(res.settingsWhy, "settings: "+side+" (a log or a TORCH_TRACE dir records none)")
		switch {
		case ta == "" && tb == "":
			res.settingsWhy = append(res.settingsWhy, "torch version: neither side states it")
		case ta == "":
			res.settingsWhy = append(res.settingsWhy, "torch version: A does not state it")
		case tb == "":
			res.settingsWhy = append(res.settingsWhy, "torch version: B does not state it")
		}
		return
	}
	sa, sb := report.Settings(*va), report.Settings(*vb)
	keys := map[string]bool{}
	for k := range sa {
		keys[k] = true
	}
	for k := range sb {
		keys[k] = true
	}
	for _, k := range report.SortedStrings(keys) {
		x, okx := sa[k]
		y, oky := sb[k]
		if okx && oky && x == y { // settings() leaves per-rank variables out
			continue
		}
		if k == "env.TORCH_LOGS" && okx && oky && report.SameLogNames(x, y) { // the same names in another order
			continue
		}
		if name, env := strings.CutPrefix(k, "env."); env && okx && oky && toolA[name] == x && toolB[name] == y &&
			withoutRunDir(x) == withoutRunDir(y) {
			continue // each run's own directory, set by the tool
		}
		if !strings.HasPrefix(k, "env.") && !strings.HasPrefix(k, "version.") && okx != oky && va.Torch != vb.Torch {
			continue // a config only one torch version has (2.6's cache_size_limit, 2.14's recompile_limit): the version differs, not a setting
		}
		if !okx {
			x = report.Missing
		}
		if !oky {
			y = report.Missing
		}
		if strings.HasPrefix(k, "version.") { // a version the probe recorded empty: none (a CPU build's CUDA)
			x, y = cmp.Or(x, "(none)"), cmp.Or(y, "(none)")
		}
		c := Change{Key: k, A: x, B: y, Knob: findings.IsKnob(k), Cache: findings.IsCacheKnob(k) || k == "version.torch"}
		if name, env := strings.CutPrefix(k, "env."); env && (okx && toolA[name] == x || oky && toolB[name] == y) {
			c.Tool = true
		}
		if strings.HasPrefix(k, "version.") {
			res.Versions = append(res.Versions, c)
		} else {
			res.Settings = append(res.Settings, c)
		}
	}
	// knobs first, and of a knob its environment variable before the config it sets
	rank := func(c Change) int {
		n := 2
		if c.Knob {
			n = 0
		}
		if !strings.HasPrefix(c.Key, "env.") {
			n++
		}
		return n
	}
	sort.SliceStable(res.Settings, func(i, j int) bool { return rank(res.Settings[i]) < rank(res.Settings[j]) })
}

// withoutRunDir is a path with its run directory ("0008-trace", a component of a number and a name) as "RUN".
func withoutRunDir(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		digits := strings.IndexFunc(p, func(r rune) bool { return r < '0' || r > '9' })
		if digits >= 4 && p[digits] == '-' {
			parts[i] = "RUN"
		}
	}
	return strings.Join(parts, "/")
}

func firstProbe(ps []report.ProcessInfo) *report.ProcessInfo {
	var best *report.ProcessInfo
	for i := range ps {
		if best == nil || ps[i].Rank < best.Rank {
			best = &ps[i]
		}
	}
	return best
}

func ptrStr(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
