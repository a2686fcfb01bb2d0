package triage

import (
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

func recompileDetail(f *Finding, g *groupSnap, rw func([]int) string) string {
	var d strings.Builder
	n := 512 // the heads; then a line a class and a guard (grown by doubling, it allocated twice what it kept)
	for _, c := range f.Classes {
		n += len(c.Class) + len(c.Detail) + 48
	}
	for _, s := range g.guards {
		n += min(len(s), 160) + 4
	}
	d.Grow(n)
	w := func(parts ...string) { // each part written as it is: no string made of them first
		for _, p := range parts {
			d.WriteString(p)
		}
	}
	w("Function: ", fnDisplay(g.key.fn, g.key.resume), " in ", g.key.file)
	if g.rawFn != g.key.fn {
		w(" (Dynamo frame ", g.rawFn, ")")
	}
	if moduleWrapper(g.key.fn, g.key.file) {
		d.WriteString("\ninner is torch's own function: it wraps the compiled module's call (torch.compile of a torch.nn module " +
			"such as nn.Sequential), so the recompile is of that module, for the inputs its guards name (args[0] is the first)")
	}
	switch {
	case g.userFile != "" && logparse.IsLibraryFile(g.userFile): // the stack holds only torch's (or a library's) frames
		w("\nGuard from library code at ", g.userFile, ":", strconv.Itoa(g.userLine))
	case g.userFile != "":
		w("\nGuard from your code at ", g.userFile, ":", strconv.Itoa(g.userLine))
	}
	w("\nRecords: ", strconv.Itoa(g.records), " (", strconv.Itoa(g.expected), " expected by automatic dynamic) · ",
		rw(f.Ranks))
	d.WriteString(dynamicLogDetail(g))
	d.WriteString("\nFailed guards:")
	confirmed := g.autoConfirmed()
	for _, c := range f.Classes {
		mark := ""
		switch {
		case c.Expected && confirmed:
			mark = " (automatic dynamic: expected)"
		case c.Expected:
			mark = " (expected if automatic dynamic is on)"
		}
		w("\n  ", c.Class, ": ", c.Detail, mark)
	}
	if len(g.guards) > 0 {
		d.WriteString("\nAs printed (each recompile's deciding guard failure):")
		for _, s := range g.guards {
			d.WriteString("\n  ")
			writeOneLine(&d, s, 160)
		}
	}
	return d.String()
}
