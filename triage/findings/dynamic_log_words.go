package findings

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/report"
)

// staticTitle is the title of a recompile group whose recompiled graph the dynamic log shows kept the input
// static ("" when it shows none: the titles of recompileTitle stand).
func staticTitle(f *Finding, g *report.GroupSnap, who string, first guard.Class) string {
	if len(g.Static) == 0 {
		return ""
	}
	once := f.unexpected == 1 && g.Records == 1
	switch first.Class {
	case "size":
		first = firstUnabsorbed(f.Classes, first)
		if once {
			return fmt.Sprintf("%s recompiled for a new size of %s (%s) and kept it static: %s shows no symbol for %s (%s), so each new size compiles again",
				who, first.Source, first.Detail, g.StaticBy(), first.Source, g.StaticCause(false))
		}
		return fmt.Sprintf("%s recompiles %d× on sizes of %s (%s): the recompiled graph%s kept %s static (%s shows no symbol for it: %s)%s",
			who, f.unexpected, first.Source, first.Detail, plural(f.unexpected), first.Source, g.StaticBy(), g.StaticCause(false), beyondOn(g))
	case "value_int", "value_float", "stack_float":
		what := fmt.Sprintf("%s value of %s", strings.TrimPrefix(first.Class, "value_"), first.Source)
		if first.Class == "stack_float" {
			what = fmt.Sprintf("value of the float %s from .item() across a graph break", first.Source)
		}
		if once {
			return fmt.Sprintf("%s recompiled for a new %s (was %s) and kept it static: %s shows no symbol for %s (%s), so each new value compiles again",
				who, what, first.Old, g.StaticBy(), first.Source, g.StaticCause(true))
		}
		return fmt.Sprintf("%s recompiles %d× on new values of %s: the recompiled graph%s kept %s static (%s shows no symbol for it: %s)%s",
			who, f.unexpected, first.Source, plural(f.unexpected), first.Source, g.StaticBy(), g.StaticCause(true), beyondOn(g))
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
func dynamicLogDetail(g *report.GroupSnap) string {
	all := append(append([]report.AutoFirst(nil), g.Autos...), g.Static...)
	if len(all) == 0 {
		return ""
	}
	report.SortAutos(all)
	type line struct {
		text  string
		ranks report.RankSet
		n     int
	}
	var lines []*line
	at := map[string]*line{}
	for _, af := range all {
		var t string
		cid, what := af.Cid.String(), af.What()
		switch {
		case af.Dyn == report.DynSymbol:
			t = fmt.Sprintf("at %s %s became a symbol: automatic dynamic made it dynamic", cid, what)
		case af.Dyn == report.DynStatic:
			t = fmt.Sprintf("at %s no symbol for %s: the recompiled graph kept it static", cid, what)
			if af.Marked {
				t += fmt.Sprintf(", although automatic dynamic marked %s dynamic (mark_static, or a config)", af.Src)
			}
		case af.Dyn == report.DynUnclear && af.ByTrace:
			t = fmt.Sprintf("holds %s whole, but it does not settle %s (no symbol named for it; its new value may be a symbol's, or one torch specialises)", cid, what)
		case af.Dyn == report.DynUnclear:
			t = fmt.Sprintf("on at %s, but it does not settle %s (no symbol named for it; its new value may be a symbol's, or one torch specialises)", cid, what)
		default:
			t = fmt.Sprintf("not on for %s: automatic dynamic is assumed (the default), not shown", cid)
		}
		if af.ByTrace {
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
		if af.Rank >= 0 {
			l.ranks.Add(af.Rank)
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
		if ranks := l.ranks.Sorted(); len(ranks) > 0 {
			d.WriteString(" · " + report.RankWord(ranks))
		}
		if l.n > 1 {
			fmt.Fprintf(&d, " ×%d", l.n)
		}
	}
	return d.String()
}
