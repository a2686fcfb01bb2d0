package findings

import (
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

func recompileDetail(f *Finding, g *report.GroupSnap, rw func([]int) string) string {
	ranks, dyn, confirmed := rw(f.Ranks), dynamicLogDetail(g), g.AutoConfirmed()
	wrapper := moduleWrapper(g.Key.Fn, g.Key.File)
	// sized to what it keeps, a little over (a builder grown by doubling allocated twice that; a margin of 512 bytes
	// for the heads and 48 a class line, more than half of it): the heads' words (256) and parts, each class line as
	// it is written, each guard's line at most (the spaces that its one line collapses are the rest)
	n := 256 + len(g.Key.Fn) + len(g.Key.File) + len(g.RawFn) + len(g.UserFile) + len(ranks) + len(dyn)
	if wrapper {
		n += 256
	}
	for _, c := range f.Classes {
		n += 5 + len(c.Class) + len(c.Detail) + len(guardMark(c, confirmed))
	}
	for _, s := range g.Guards {
		n += 3 + min(len(s), 160)
	}
	var d strings.Builder
	d.Grow(n)
	w := func(parts ...string) { // each part written as it is: no string made of them first
		for _, p := range parts {
			d.WriteString(p)
		}
	}
	w("Function: ", FnDisplay(g.Key.Fn, g.Key.Resume), " in ", g.Key.File)
	if g.RawFn != g.Key.Fn {
		w(" (Dynamo frame ", g.RawFn, ")")
	}
	if wrapper && f.Module != "" {
		w("\ninner is torch's own function: it wraps the call of the compiled module ", f.Module,
			", so the recompile is of that module, for the inputs its guards name (args[0] is the first)")
		if f.Function != g.Key.Fn {
			w("\nCalled from: ", ShortPath(f.File), ":", strconv.Itoa(f.Line), " in ", f.Function, " (the probe saw the call)")
		}
	}
	if f.CompiledAt != nil {
		static := ""
		if f.CompiledAt.Static() {
			static = ", given dynamic=False"
		}
		w("\nCompiled at: ", ShortPath(f.CompiledAt.File), ":", strconv.Itoa(f.CompiledAt.Line), " in ", f.CompiledAt.Function,
			" (its torch.compile call", static, "; the probe saw it)")
	}
	if wrapper && f.Module == "" {
		d.WriteString("\ninner is torch's own function: it wraps the compiled module's call (torch.compile of a torch.nn module " +
			"such as nn.Sequential), so the recompile is of that module, for the inputs its guards name (args[0] is the first)")
	}
	switch {
	case g.UserFile != "" && logparse.IsLibraryFile(g.UserFile): // the stack holds only torch's (or a library's) frames
		w("\nGuard from library code at ", g.UserFile, ":", strconv.Itoa(g.UserLine))
	case g.UserFile != "":
		w("\nGuard from your code at ", g.UserFile, ":", strconv.Itoa(g.UserLine))
	}
	if f.CompiledAt.Static() { // its torch.compile call turned automatic dynamic off
		w("\nRecords: ", strconv.Itoa(g.Records), " (automatic dynamic off: dynamic=False) · ", ranks)
	} else {
		w("\nRecords: ", strconv.Itoa(g.Records), " (", strconv.Itoa(g.Expected), " expected by automatic dynamic) · ",
			ranks)
	}
	d.WriteString(dyn)
	d.WriteString("\nFailed guards:")
	for _, c := range f.Classes {
		w("\n  ", c.Class, ": ", c.Detail, guardMark(c, confirmed))
	}
	if len(g.Guards) > 0 {
		d.WriteString("\nAs printed (each recompile's deciding guard failure):")
		for _, s := range g.Guards {
			d.WriteString("\n  ")
			text.WriteOneLine(&d, s, 160)
		}
	}
	return d.String()
}

// guardMark says of a class of failed guards that automatic dynamic absorbs it (confirmed: the dynamic log shows it).
func guardMark(c guard.Class, confirmed bool) string {
	switch {
	case c.Expected && confirmed:
		return " (automatic dynamic: expected)"
	case c.Expected:
		return " (expected if automatic dynamic is on)"
	}
	return ""
}
