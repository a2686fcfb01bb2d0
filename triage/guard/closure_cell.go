package guard

import (
	"regexp"
	"strings"
)

// closureHint is 2.14's name of the variable a guarded closure cell holds, in the guard's comment:
// `G['helper'].__closure__[0].cell_contents == 0.5  # return x + shift  # r.py:10 in helper (HINT: guard on "shift")`.
var closureHint = regexp.MustCompile(`HINT: guard on "([A-Za-z_]\w*)"`)

// IsClosureCell reports a guard on a closure cell, `….__closure__[0].cell_contents` (2.6 and 2.14 print it alike
// for a function the compiled code calls): a variable of that function's enclosing scope, which no argument passes.
func IsClosureCell(g string) bool {
	return strings.Contains(g, ".__closure__[") && strings.Contains(g, ".cell_contents")
}

// classifyClosureCell reads a value guard on a closure cell (IsClosureCell) as class closure_cell: Source the
// cell (helper.__closure__[0].cell_contents), Old the value compiled for, and Detail the variable's name where
// 2.14's hint gives it ("shift == 0.5"), else the cell's. Other guards on a cell (its identity, a size) keep their
// class.
func classifyClosureCell(text, g string, gc *Class) {
	classifyExpr(g, gc)
	if !strings.HasPrefix(gc.Class, "value_") {
		return
	}
	gc.Class = "closure_cell"
	if m := closureHint.FindStringSubmatch(text); m != nil {
		gc.Detail = m[1] + " == " + gc.Old
	}
}

// ClosureVariable is the name of the variable a closure_cell guard holds, "" where the log does not say it (2.6).
func ClosureVariable(gc Class) string {
	if name, _, ok := strings.Cut(gc.Detail, " == "); ok && gc.Class == "closure_cell" && name != gc.Source {
		return name
	}
	return ""
}

// ValueClassOf is the value class of a guarded value as printed ("0.5": value_float, "3": value_int, "'a'":
// value_str), as a value guard on an argument would be classed.
func ValueClassOf(v string) string { return valueClass(v) }
