package findings

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// whatOfClass is the list label of a recompile class ("shape x[0] 8→9", "float scale").
func whatOfClass(gc guard.Class) string {
	src := gc.Source
	switch gc.Class {
	case "size":
		if gc.Old != "" && gc.New != "" {
			return fmt.Sprintf("shape %s[%d] %s→%s", src, gc.Dim, gc.Old, gc.New)
		}
		return "shape " + src
	case "stride", "dtype", "device", "requires_grad":
		return gc.Class + " " + src
	case "rank":
		return "ndim " + src
	case "value_int", "value_float", "value_str", "value_bool":
		return strings.TrimPrefix(gc.Class, "value_") + " " + src
	case "stack_float":
		return "float " + src
	case "obj_id":
		return "object id " + src
	case "type":
		return "type " + src
	case "length":
		return "len " + src
	case "global_state":
		return "global state"
	case "param_shape":
		return "parameter shape"
	case "backend":
		return "backend"
	case "enum":
		return "Enum " + src
	case "none":
		return "None " + src
	case "singleton":
		return "True/False/None " + src
	case "dict_key":
		return "dict key " + src
	case "hasattr":
		return "hasattr " + src
	case "global_container":
		return "global " + src
	case "module_attr":
		return "module attr " + src
	case "closure_cell":
		if v := guard.ClosureVariable(gc); v != "" {
			return "closure " + v
		}
		return "closure " + src
	}
	return "guard " + text.OneLine(gc.Detail, 40)
}

// describeClass says in words what changed, for titles and rank-agreement lines.
func DescribeClass(gc guard.Class, n int) string {
	src := gc.Source
	switch gc.Class {
	case "size":
		return "size mismatch " + gc.Detail
	case "value_int", "value_float", "value_str", "value_bool":
		kind := strings.TrimPrefix(gc.Class, "value_")
		if n > 1 {
			return fmt.Sprintf("new %s values of %s (was %s, …)", kind, src, gc.Old)
		}
		return fmt.Sprintf("new %s value of %s (was %s)", kind, src, gc.Old)
	case "stack_float":
		if n > 1 {
			return fmt.Sprintf("the float %s from .item() across a graph break changed (was %s, …)", src, gc.Old)
		}
		return fmt.Sprintf("the float %s from .item() across a graph break changed (was %s)", src, gc.Old)
	case "obj_id":
		if strings.ContainsAny(src, ".[") { // an attribute or an item of an argument: nothing was passed as it
			return "a different object in " + src
		}
		return "a different object passed as " + cmp.Or(src, "an argument")
	case "global_state":
		return gc.Detail + " changed"
	case "param_shape":
		return "a parameter's shape changed"
	case "backend":
		return "compiled again with another backend"
	}
	if w := classWords(gc, n); w != "" {
		return w
	}
	return gc.Class + ": " + gc.Detail
}

// fnDisplay names a recompile group's function for people: "step", or "step (after line 10)" for the frame
// Dynamo resumes after a graph break.
func FnDisplay(fn string, resume int) string {
	if fn == "" {
		fn = "?"
	}
	if resume > 0 {
		return fmt.Sprintf("%s (after line %d)", fn, resume)
	}
	return fn
}

func RecompileFinding(g *report.GroupSnap, set *playbooks.Set, rw func([]int) string, probes []report.ProcessInfo) Finding {
	k := g.Key
	f := Finding{Kind: KindRecompile, File: k.File, Line: g.FnLine, Function: k.Fn, Records: g.Records,
		Evidence: g.Evidence, RankStats: g.RankStats, Resume: k.Resume}
	if k.Resume > 0 {
		f.Line = k.Resume
	}
	f.Ranks = RanksOf(g.RankStats)
	mod, named := wrappedModule(g, f.Ranks, probes)
	inTorch := strings.Contains(strings.ReplaceAll(g.UserFile, `\`, "/"), "/torch/") // the guard's line is torch's own
	switch {
	case g.UserFile != "" && !(named && inTorch && len(mod.Calls) > 0):
		f.File, f.Line = g.UserFile, g.UserLine
	case named && len(mod.Calls) > 0: // the user's call of the module, not torch's wrapper (nor a line inside torch's module)
		f.File, f.Line, f.Function = mod.Calls[0].File, mod.Calls[0].Line, mod.Calls[0].Function
	default:
		f.FnSite = true
	}
	if named {
		f.Module = mod.Module
	}
	f.CompiledAt = compiledAt(g, f, named, probes)
	for _, c := range g.Cids {
		f.CompileIDs = append(f.CompileIDs, c.String())
	}
	f.Classes = classesOf(g)
	first := guard.Class{Class: k.Class, Source: k.Source, Dim: -1}
	if len(f.Classes) > 0 {
		first = f.Classes[0]
	}
	f.unexpected = g.Records - g.Expected
	f.expectedAssumed = g.Expected > 0 && !g.AutoConfirmed()
	reason := ""
	if len(g.Guards) > 0 {
		reason = guard.StripGuardComment(g.Guards[0])
	}
	q := playbooks.Query{Kind: KindRecompile, GuardClass: k.Class, Reason: reason}
	if staticCompile(&f, first) { // no automatic dynamic: no recompile is its expected first one
		f.unexpected, f.expectedAssumed = g.Records, false
		f.Classes = slices.Clone(f.Classes)
		for i := range f.Classes {
			f.Classes[i].Expected = false
		}
		q = playbooks.Query{Kind: KindRecompile, Reason: "torch.compile(dynamic=False)"}
		at := ShortPath(f.CompiledAt.File) + ":" + strconv.Itoa(f.CompiledAt.Line)
		switch {
		case first.Class == "value_int":
			f.Do = "Drop dynamic=False at " + at + " (with the default, dynamic=None, automatic dynamic makes the int a symbol when it changes), or pass the value as a tensor"
		default:
			f.Do = "Drop dynamic=False at " + at + " (the default, dynamic=None, makes the dimension dynamic at its first new size), or mark the dimension dynamic before the first call"
			if first.Dim >= 0 {
				f.Do += fmt.Sprintf(": torch._dynamo.mark_dynamic(%s, %d)", first.Source, first.Dim)
			}
		}
	}
	f.Expected = f.unexpected == 0
	ApplyPlaybook(&f, MatchPlaybook(set, q))
	f.What = whatOfClass(first)
	kc := keyClass(k.Class)
	if k.Class == "closure_cell" { // the value class the same guard had before closure cells were told apart
		kc = guard.ValueClassOf(first.Old)
	}
	f.Key = "recompile:" + ShortPath(k.File) + ":" + k.Fn + ":" + kc
	f.ID = f.Key + ":" + k.Source
	if k.Resume > 0 {
		f.ID += fmt.Sprintf("@%d", k.Resume)
	}
	f.Title = recompileTitle(&f, g, first)
	f.Detail = recompileDetail(&f, g, rw)
	return f
}

// classesOf is the group's classes, each Expected where automatic dynamic absorbs it. Where that changes none (most
// groups) they are the group's own, shared read-only (the finding's are never written), not copied: a thousand
// groups of tens of classes in a big run.
func classesOf(g *report.GroupSnap) []guard.Class {
	expected := func(c guard.Class) bool {
		return (c.Class == "size" || report.ScalarClass(c.Class)) && g.ExpDetail[c.Detail]
	}
	i := slices.IndexFunc(g.Classes, func(c guard.Class) bool { return expected(c) != c.Expected })
	if i < 0 {
		return g.Classes[:len(g.Classes):len(g.Classes)] // an append makes its own
	}
	out := slices.Clone(g.Classes)
	for ; i < len(out); i++ {
		out[i].Expected = expected(out[i])
	}
	return out
}

// moduleWrapper reports torch's wrap_inline `inner` (torch/_dynamo/external_utils.py), the frame Dynamo traces
// for a compiled torch.nn module whose forward torch's trace rules skip (2.6 and 2.14.1 eval_frame.py).
func moduleWrapper(fn, file string) bool {
	return fn == "inner" && strings.HasSuffix(strings.ReplaceAll(file, `\`, "/"), "torch/_dynamo/external_utils.py")
}

// wrappedModule is what the probe recorded of the module a recompile group of torch's wrapper `inner` compiles
// (its frame id, the group's rank where it has one): its class and the user's frames that called it.
func wrappedModule(g *report.GroupSnap, ranks []int, probes []report.ProcessInfo) (probe.ModuleFrame, bool) {
	if !moduleWrapper(g.Key.Fn, g.Key.File) || len(g.Cids) == 0 || g.Cids[0].Frame < 0 {
		return probe.ModuleFrame{}, false
	}
	rank := -1
	if len(ranks) == 1 {
		rank = ranks[0]
	}
	return probe.ModuleFrameOf(probes, rank, g.Cids[0].Frame)
}

// compiledAt is where the probe saw the user call torch.compile on what a recompile group compiles: the module
// of torch's wrapper inner by its class, else the code the group's frame is (a module's forward, a function) by its
// file and first line; a resume function (code after a graph break) is none: nil.
func compiledAt(g *report.GroupSnap, f Finding, named bool, probes []report.ProcessInfo) *probe.CompileCall {
	rank := -1
	if len(f.Ranks) == 1 {
		rank = f.Ranks[0]
	}
	var site probe.CompileSite
	var ok bool
	switch {
	case named:
		site, ok = probe.CompileSiteOfModule(probes, rank, f.Module)
	case g.Key.Resume == 0 && !moduleWrapper(g.Key.Fn, g.Key.File):
		site, ok = probe.CompileSiteOfCode(probes, rank, g.Key.File, g.FnLine)
	}
	if !ok {
		return nil
	}
	return &site.CompileCall
}

// CompiledAtText words where torch.compile was called: "compiled at train.py:12", "compiled at train.py:12 with
// dynamic=False"; "" when not known.
func (f Finding) CompiledAtText() string {
	if f.CompiledAt == nil {
		return ""
	}
	s := "compiled at " + ShortPath(f.CompiledAt.File) + ":" + strconv.Itoa(f.CompiledAt.Line)
	if f.CompiledAt.Static() {
		s += " with dynamic=False"
	}
	return s
}

// staticCompile: the recompile is of a new size (or int value) of what torch.compile(dynamic=False) compiled, as
// the probe saw the call: dynamic=False turns automatic dynamic off, so each new one compiles again.
func staticCompile(f *Finding, first guard.Class) bool {
	return f.CompiledAt.Static() && (first.Class == "size" || first.Class == "value_int")
}

func recompileTitle(f *Finding, g *report.GroupSnap, first guard.Class) string {
	who := FnDisplay(g.Key.Fn, g.Key.Resume)
	if moduleWrapper(g.Key.Fn, g.Key.File) {
		who = "the compiled module (torch's wrapper inner)"
		if f.Module != "" {
			who = "the compiled module " + f.Module
		}
	}
	if at := f.CompiledAtText(); at != "" {
		who += " (" + at + ")"
	}
	n := len(g.Classes)
	switch {
	case staticCompile(f, first) && first.Class == "size":
		first = firstUnabsorbed(f.Classes, first)
		return fmt.Sprintf("%s recompiles %d× on sizes of %s (%s): dynamic=False turns automatic dynamic off, so each new size compiles again",
			who, f.Records, first.Source, first.Detail)
	case staticCompile(f, first):
		return fmt.Sprintf("%s recompiles %d× on new int values of %s (was %s): dynamic=False turns automatic dynamic off, so each new value compiles again",
			who, f.Records, first.Source, first.Old)
	}
	if t := staticTitle(f, g, who, first); t != "" {
		return t
	}
	if !f.Expected && boundedVariants(f.Classes) {
		// each variant compiles once by design: no recompile to fix, for the verdict and the gate as for the words
		f.Variants, f.unexpected = true, 0
		f.Severity, f.Category = "low", CategoryConsider
		return variantTitle(who, f, first)
	}
	if w := classWords(first, n); w != "" && !f.Expected {
		return fmt.Sprintf("%s recompiles %d×: %s", who, f.Records, w)
	}
	// expected once: automatic dynamic, as the dynamic log shows, or, where it does not, assumed (the default)
	expected := "automatic dynamic, expected once" + g.TraceShows()
	if f.Expected && !g.AutoConfirmed() {
		expected = "expected once if automatic dynamic is on (the default; " + g.AssumedWhy() + ")"
	}
	switch {
	case f.Expected && first.Class == "stack_float":
		return fmt.Sprintf("%s recompiled for a new value of the float %s from .item() across a graph break (was %s): %s",
			who, first.Source, first.Old, expected)
	case f.Expected && (first.Class == "value_int" || first.Class == "value_float"):
		return fmt.Sprintf("%s recompiled for a new %s value of %s (was %s): %s", who,
			strings.TrimPrefix(first.Class, "value_"), first.Source, first.Old, expected)
	case f.Expected:
		return fmt.Sprintf("%s recompiled for a new size of %s (%s): %s", who, first.Source, first.Detail, expected)
	case (first.Class == "value_int" || first.Class == "value_float") && g.Expected > 0:
		return fmt.Sprintf("%s recompiles %d× on %s values of %s beyond automatic dynamic's first: %s", who, f.unexpected,
			strings.TrimPrefix(first.Class, "value_"), first.Source, DescribeClass(first, n))
	case first.Class == "size":
		first = firstUnabsorbed(f.Classes, first)
		return fmt.Sprintf("%s recompiles %d× on sizes of %s (%s) beyond automatic dynamic's first%s", who, f.unexpected, first.Source, first.Detail, beyondOn(g))
	}
	t := fmt.Sprintf("%s recompiles %d×: %s", who, f.Records, DescribeClasses(g.Classes))
	if first.Class == "obj_id" && f.Records < maxModeValues && len(g.Guards) > 0 && !strings.Contains(g.Guards[0], "type=<") &&
		first.Source != "self" && !strings.ContainsAny(first.Source, ".[") { // an argument, not a method's receiver or an attribute
		// 2.6 prints neither the object's type nor the code that compared it: an Enum member (2.14: class enum) reads
		// the same as a new object each call
		t += " (one of a fixed set, such as an Enum member, is a variant to warm up; a new object each call is a defect)"
	}
	return t
}

// firstUnabsorbed is the first of cs automatic dynamic did not absorb (a repeat: not Expected), else first.
func firstUnabsorbed(cs []guard.Class, first guard.Class) guard.Class {
	for _, c := range cs {
		if !c.Expected {
			return c
		}
	}
	return first
}

// describeClasses says what changed over a recompile group's guard failures: a dtype, device or other old→new of one
// source chained ("x dtype Float→Half→BFloat16") or listed ("Float→Half, Float→BFloat16"); else the first one
// (describeClass: values say "…" themselves), with how many more.
func DescribeClasses(cs []guard.Class) string {
	if len(cs) == 0 {
		return ""
	}
	first := cs[0]
	if len(cs) == 1 || strings.HasPrefix(first.Class, "value_") || first.Class == "stack_float" {
		return DescribeClass(first, len(cs))
	}
	if first.Old == "" || !strings.HasSuffix(first.Detail, first.Old+"→"+first.New) { // "dispatch key set (…)"
		return fmt.Sprintf("%s (and %d more)", DescribeClass(first, 1), len(cs)-1)
	}
	steps := []string{first.Old + "→" + first.New}
	chain := first.Old + "→" + first.New
	for _, c := range cs[1:] {
		if c.Class != first.Class || c.Source != first.Source || c.Old == "" || c.New == "" {
			return fmt.Sprintf("%s (and %d more)", DescribeClass(first, 1), len(cs)-1)
		}
		steps = append(steps, c.Old+"→"+c.New)
		if chain != "" && strings.HasSuffix(chain, "→"+c.Old) {
			chain += "→" + c.New
		} else {
			chain = ""
		}
	}
	what := strings.Join(steps, ", ")
	if chain != "" {
		what = chain
	}
	return first.Class + ": " + strings.TrimSuffix(first.Detail, first.Old+"→"+first.New) + what
}

// parseCID reads "F/C", "F/C_A" and "!N/F/C_A".
func parseCID(s string) (logparse.CompileID, bool) {
	c := logparse.CompileID{Autograd: -1, Frame: -1}
	if s == "" {
		return c, false
	}
	if s[0] == '!' {
		i := strings.IndexByte(s, '/')
		if i < 0 {
			return c, false
		}
		if _, err := fmt.Sscanf(s[1:i], "%d", &c.Autograd); err != nil {
			return c, false
		}
		s = s[i+1:]
	}
	attempt := 0
	if i := strings.IndexByte(s, '_'); i >= 0 {
		if _, err := fmt.Sscanf(s[i+1:], "%d", &attempt); err != nil {
			return c, false
		}
		s = s[:i]
	}
	var f, n int
	if k, err := fmt.Sscanf(s, "%d/%d", &f, &n); err != nil || k != 2 {
		return c, false
	}
	c.Frame, c.Compile, c.Attempt = f, n, attempt
	return c, true
}

// beyondOn names the ranks whose recompiles go beyond automatic dynamic's first, where the others' were only the
// expected ones (" on rank 1"): "" when every rank of the group has some beyond, or there are no ranks.
func beyondOn(g *report.GroupSnap) string {
	var beyond []int
	for r, st := range g.RankStats {
		if r >= 0 && st.N > st.Exp {
			beyond = append(beyond, r)
		}
	}
	if len(beyond) == 0 || len(beyond) == len(g.RankStats) {
		return ""
	}
	sort.Ints(beyond)
	return " on " + report.RankWord(beyond)
}

// firstClass is the guard class of a recompile finding ("size", "value_str"), or "".
func (f *Finding) FirstClass() string {
	if len(f.Classes) > 0 {
		return f.Classes[0].Class
	}
	return ""
}
