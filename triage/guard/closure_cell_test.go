package guard

import "testing"

// A guard on a closure cell of a function the compiled code calls (testdata/answers a15, real 2.14.1 and 2.6.0:
// `G['helper'].__closure__[0].cell_contents == 0.5`) is its own class, closure_cell, not a value guard on an
// argument; 2.14's hint names the variable. A guard on the compiled closure's own free variable prints as an
// argument's does (a14: `scale == 1.5`, 2.6 `L['scale'] == 1.5`) and stays a value guard: the text cannot tell.
func TestClassifyClosureCellGuards(t *testing.T) {
	cases := []struct{ text, class, source, old, detail, variable string }{
		{`G['helper'].__closure__[0].cell_contents == 0.5               # return x + shift  # ork/wt-evidence/testdata/answers/repro/a15_rc_closure_helper.py:10 in helper (HINT: guard on "shift")`,
			"closure_cell", "helper.__closure__[0].cell_contents", "0.5", "shift == 0.5", "shift"},
		{`G['helper'].__closure__[0].cell_contents == 0.5             `, "closure_cell", "helper.__closure__[0].cell_contents", "0.5", "helper.__closure__[0].cell_contents == 0.5", ""},
		{`L['self'].fn.__closure__[1].cell_contents == 3`, "closure_cell", "self.fn.__closure__[1].cell_contents", "3", "self.fn.__closure__[1].cell_contents == 3", ""},
		{`scale == 1.5                                             # return x * scale  # ork/a14_rc_closure_cell.py:11 in f`, "value_float", "scale", "1.5", "scale == 1.5", ""},
		{`L['scale'] == 1.5`, "value_float", "scale", "1.5", "scale == 1.5", ""},
		{`___check_obj_id(G['helper'].__closure__[0].cell_contents, 140377630248304)`, "obj_id", "helper.__closure__[0].cell_contents", "", "object identity of helper.__closure__[0].cell_contents", ""},
	}
	for _, c := range cases {
		g := Classify(c.text)
		if g.Class != c.class || g.Source != c.source || g.Old != c.old || g.Detail != c.detail || ClosureVariable(g) != c.variable {
			t.Errorf("%q:\n got %+v (variable %q)\nwant %s %s old %s %q variable %q", c.text, g, ClosureVariable(g), c.class, c.source, c.old, c.detail, c.variable)
		}
	}
}
