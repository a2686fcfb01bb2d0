package findings

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/triage/guard"
)

// maxModeValues is the most distinct string values a recompile group may show and still read as a set of modes
// (train/eval, an activation's name): more, or a recompile-limit hit, reads as a stream of new strings.
const maxModeValues = 4

// variantClass reports a guard class whose values are a bounded set by their nature: an Enum member, a bool, a
// None test, 2.6's True/False/None identity. value_str is one only while its values are few (boundedVariants).
func variantClass(class string) bool {
	switch class {
	case "enum", "value_bool", "none", "singleton":
		return true
	}
	return false
}

// boundedVariants reports a recompile group whose guards all pick among a few variants (each mode, member or None
// case compiled once): expected variants to warm up, not a defect. A str group qualifies with at most
// maxModeValues distinct values; a limit hit (attachLimit) ends it.
func boundedVariants(cs []guard.Class) bool {
	if len(cs) == 0 {
		return false
	}
	var strs []string
	for _, c := range cs {
		switch {
		case variantClass(c.Class):
		case c.Class == "value_str":
			if !slices.Contains(strs, c.Old) {
				strs = append(strs, c.Old)
			}
		default:
			return false
		}
	}
	return len(strs) <= maxModeValues-1 // the values compiled for; the call that failed them is one more
}

// classWords says, for the guard classes of one shape, what changed and why in words true for that shape (the
// title's cause), or "" for the classes recompileTitle words itself.
func classWords(gc guard.Class, n int) string {
	src := cmp.Or(gc.Source, "an argument")
	switch gc.Class {
	case "enum":
		return fmt.Sprintf("one variant per Enum member passed as %s (%s)", src, gc.Detail)
	case "value_bool":
		return fmt.Sprintf("one variant per value of the bool %s (True, False)", src)
	case "none":
		if i := strings.LastIndexByte(src, '.'); i > 0 {
			return fmt.Sprintf("the field %s of %s is None on one call and set on another (an optional output field)", src[i+1:], src[:i])
		}
		return fmt.Sprintf("%s is None on one call and a value on another (e.g. prefill without a cache, then decode)", src)
	case "singleton":
		return fmt.Sprintf("%s is True, False or None and changed between calls (a bool flag or an optional argument; "+
			"guessed from the object id 2.6 guards: it prints no value)", src)
	case "dict_key":
		key, _, _ := strings.Cut(strings.TrimPrefix(gc.Detail, "key "), " ")
		return fmt.Sprintf("the key %s is in %s on some calls and not on others (an optional dict key, not a length)", key, src)
	case "hasattr":
		attr := strings.TrimSuffix(gc.Detail[strings.LastIndexByte(gc.Detail, ',')+1:], ")")
		return fmt.Sprintf("%s had no attribute %s on the first call: forward creates it (a lazy attribute)", src, strings.TrimSpace(attr))
	case "global_container":
		return fmt.Sprintf("the global %s the compiled code reads changed between calls (%s, …): state mutated between "+
			"calls, or a cache (keyed by data_ptr(), id()) filled inside the compiled code", src, gc.Detail)
	case "closure_cell":
		fn, _, _ := strings.Cut(gc.Source, ".__closure__[")
		what := "a variable " + fn + " reads from its enclosing scope (its closure cell, " + gc.Source + ")"
		if v := guard.ClosureVariable(gc); v != "" {
			what = "the variable " + v + " that " + fn + " reads from its enclosing scope (a closure cell)"
		}
		return fmt.Sprintf("%s changed between calls (was %s): a value the program sets outside the compiled code, which no argument passes", what, gc.Old)
	case "module_attr":
		if n > 1 {
			return fmt.Sprintf("new values of the module attribute %s (was %s, …): torch keeps nn.Module int attributes static", src, gc.Old)
		}
		return fmt.Sprintf("a new value of the module attribute %s (was %s): torch keeps nn.Module int attributes static", src, gc.Old)
	}
	return ""
}

// variantTitle is the title of a recompile group of bounded variants: what varies, and that it is expected.
func variantTitle(who string, f *Finding, first guard.Class) string {
	what := classWords(first, len(f.Classes))
	if first.Class == "value_str" {
		var vals []string
		for _, c := range f.Classes {
			if !slices.Contains(vals, c.Old) {
				vals = append(vals, c.Old)
			}
		}
		what = fmt.Sprintf("one variant per str mode of %s (%s, then another)", cmp.Or(first.Source, "an argument"), strings.Join(vals, ", "))
	}
	more := "1 more variant"
	if f.Records != 1 {
		more = fmt.Sprintf("%d more variants", f.Records)
	}
	return fmt.Sprintf("%s compiled %s: %s — expected variants, warm each up", who, more, what)
}

// keyClass is the class a recompile's compare key (diff, baselines) names: for the classes that read one guard
// more closely, the class the same guard had before them, so that a baseline written then still matches and one
// cause keeps one key where torch versions print it differently (2.14's nn.Module int attribute is 2.6's value_int,
// its Enum comparison 2.6's bare identity guard).
func keyClass(class string) string {
	switch class {
	case "module_attr":
		return "value_int"
	case "enum", "singleton":
		return "obj_id"
	case "none", "dict_key", "hasattr", "global_container":
		return "other"
	}
	return class
}
