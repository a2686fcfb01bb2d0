package triage

import (
	"fmt"
	"strings"
)

// autoConfirmed: the dynamic log shows every expected recompile of g made its input symbolic.
func (g *groupSnap) autoConfirmed() bool {
	for _, af := range g.autos {
		if af.dyn != dynSymbol {
			return false
		}
	}
	return len(g.autos) > 0
}

// assumedWhy says, of an expected recompile the dynamic log does not confirm, how it could be: "TORCH_LOGS=dynamic
// would show it" where the log was not on for a compile, else that it does not settle it.
func (g *groupSnap) assumedWhy() string {
	for _, af := range g.autos {
		if af.dyn == dynNotLogged {
			return "TORCH_LOGS=dynamic would show it"
		}
	}
	for _, af := range g.autos {
		if af.dyn == dynUnclear && !af.byTrace {
			return "the dynamic log does not settle it"
		}
	}
	return "the trace does not settle it"
}

// traceShows is the title's words on what a TORCH_TRACE file showed of g's expected recompiles, where it is what
// confirms one (" (the trace shows x[0] became a symbol at 0/1)"; "" where the dynamic log confirms them all).
func (g *groupSnap) traceShows() string {
	var first *autoFirst
	n := 0
	seen := map[string]bool{} // what at which compile id: the ranks of one run share them
	for i := range g.autos {
		if af := &g.autos[i]; af.dyn == dynSymbol && af.byTrace && !seen[af.what()+" "+af.cid.String()] {
			seen[af.what()+" "+af.cid.String()] = true
			if first == nil {
				first = af
			}
			n++
		}
	}
	if first == nil {
		return ""
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(", and %d more", n-1)
	}
	return fmt.Sprintf(" (the trace shows %s became a symbol at %s%s)", first.what(), first.cid, more)
}

// staticBy names what shows g's static recompiles made no symbol: the dynamic log, or a TORCH_TRACE file.
func (g *groupSnap) staticBy() string {
	for _, af := range g.static {
		if !af.byTrace {
			return "the dynamic log"
		}
	}
	return "the trace"
}

// staticCause says what keeps an input static whose recompile the dynamic log shows made no symbol: where 2.14's
// automatic dynamic marked it dynamic first, not dynamic=False.
func (g *groupSnap) staticCause(scalar bool) string {
	for _, af := range g.static {
		if af.marked {
			if scalar {
				return "automatic dynamic marked it dynamic, yet a config kept it static"
			}
			return "automatic dynamic marked it dynamic, yet mark_static or a config kept it static"
		}
	}
	if scalar {
		return "dynamic=False or automatic dynamic off"
	}
	return "dynamic=False, mark_static or automatic dynamic off"
}

// staticTitle is the title of a recompile group whose recompiled graph the dynamic log shows kept the input
// static ("" when it shows none: the titles of recompileTitle stand).
func staticTitle(f *Finding, g *groupSnap, who string, first GuardClass) string {
	if len(g.static) == 0 {
		return ""
	}
	once := f.unexpected == 1 && g.records == 1
	switch first.Class {
	case "size":
		first = firstUnabsorbed(f.Classes, first)
		if once {
			return fmt.Sprintf("%s recompiled for a new size of %s (%s) and kept it static: %s shows no symbol for %s (%s), so each new size compiles again",
				who, first.Source, first.Detail, g.staticBy(), first.Source, g.staticCause(false))
		}
		return fmt.Sprintf("%s recompiles %d× on sizes of %s (%s): the recompiled graph%s kept %s static (%s shows no symbol for it: %s)%s",
			who, f.unexpected, first.Source, first.Detail, plural(f.unexpected), first.Source, g.staticBy(), g.staticCause(false), beyondOn(g))
	case "value_int", "value_float", "stack_float":
		what := fmt.Sprintf("%s value of %s", strings.TrimPrefix(first.Class, "value_"), first.Source)
		if first.Class == "stack_float" {
			what = fmt.Sprintf("value of the float %s from .item() across a graph break", first.Source)
		}
		if once {
			return fmt.Sprintf("%s recompiled for a new %s (was %s) and kept it static: %s shows no symbol for %s (%s), so each new value compiles again",
				who, what, first.Old, g.staticBy(), first.Source, g.staticCause(true))
		}
		return fmt.Sprintf("%s recompiles %d× on new values of %s: the recompiled graph%s kept %s static (%s shows no symbol for it: %s)%s",
			who, f.unexpected, first.Source, plural(f.unexpected), first.Source, g.staticBy(), g.staticCause(true), beyondOn(g))
	}
	return ""
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// dynamicLogDetail is the detail's lines on what the dynamic log showed of the recompiles automatic dynamic would
// have absorbed, one per distinct line with its ranks and how many ("" when there are none).
func dynamicLogDetail(g *groupSnap) string {
	all := append(append([]autoFirst(nil), g.autos...), g.static...)
	if len(all) == 0 {
		return ""
	}
	sortAutos(all)
	type line struct {
		text  string
		ranks rankSet
		n     int
	}
	var lines []*line
	at := map[string]*line{}
	for _, af := range all {
		var t string
		cid, what := af.cid.String(), af.what()
		switch {
		case af.dyn == dynSymbol:
			t = fmt.Sprintf("at %s %s became a symbol: automatic dynamic made it dynamic", cid, what)
		case af.dyn == dynStatic:
			t = fmt.Sprintf("at %s no symbol for %s: the recompiled graph kept it static", cid, what)
			if af.marked {
				t += fmt.Sprintf(", although automatic dynamic marked %s dynamic (mark_static, or a config)", af.src)
			}
		case af.dyn == dynUnclear && af.byTrace:
			t = fmt.Sprintf("holds %s whole, but it does not settle %s (no symbol named for it; its new value may be a symbol's, or one torch specialises)", cid, what)
		case af.dyn == dynUnclear:
			t = fmt.Sprintf("on at %s, but it does not settle %s (no symbol named for it; its new value may be a symbol's, or one torch specialises)", cid, what)
		default:
			t = fmt.Sprintf("not on for %s: automatic dynamic is assumed (the default), not shown", cid)
		}
		if af.byTrace {
			t = "TORCH_TRACE: " + t
		} else {
			t = "Dynamic log: " + t
		}
		l := at[t]
		if l == nil {
			l = &line{text: t}
			at[t] = l
			lines = append(lines, l)
		}
		if af.rank >= 0 {
			l.ranks.add(af.rank)
		}
		l.n++
	}
	const most = 8
	var d strings.Builder
	for i, l := range lines {
		if i == most {
			fmt.Fprintf(&d, "\n… and %d more", len(lines)-most)
			break
		}
		fmt.Fprintf(&d, "\n%s", l.text)
		if ranks := l.ranks.sorted(); len(ranks) > 0 {
			d.WriteString(" · " + RankWord(ranks))
		}
		if l.n > 1 {
			fmt.Fprintf(&d, " ×%d", l.n)
		}
	}
	return d.String()
}
