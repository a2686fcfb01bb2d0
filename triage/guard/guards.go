package guard

import (
	"cmp"
	"regexp"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/text"
)

// Class is one classified guard failure: which class of guard failed, on which input, and (for sizes and
// tensor properties) the old and new value. Class is one of playbooks.GuardClasses.
type Class struct {
	Class    string `json:"class"`
	Source   string `json:"source,omitempty"` // the guarded input, L['x'] → x
	Detail   string `json:"detail"`           // "x[0] 8→9", "mode == 'a0'", "global state: grad_mode"
	Dim      int    `json:"dim"`              // the dimension for size/stride, else -1
	Old      string `json:"old,omitempty"`    // the value the cache entry was compiled for
	New      string `json:"new,omitempty"`    // the value of the call that failed (when the log shows it)
	Expected bool   `json:"expected,omitempty"`
}

var (
	tensorIndexed  = regexp.MustCompile(`^tensor '(.+)' (size|stride) mismatch at index (\d+)\. expected (\S+?), actual (\S+?)\.?$`)
	tensorProperty = regexp.MustCompile(`^tensor '(.+)' (rank|dtype|device|requires_grad|dispatch key set) mismatch\.?\s*(.*)$`)
	expectedActual = regexp.MustCompile(`expected ([^,]+), actual (.+?)\.?$`)
	// SizeExpr is a tensor's size, shape or stride index in a source ("L['x'].size()[0]"): the source, the
	// accessor, the dimension
	SizeExpr     = regexp.MustCompile(`([A-Za-z_][\w\[\]'".]*?)\.(size\(\)|shape|stride\(\))\[(\d+)\]`)
	lenGuard     = regexp.MustCompile(`^len\((.+)\)\s*==\s*(\d+)$`)
	callArg      = regexp.MustCompile(`^\w+\((.+?),\s*-?\d+\)(?:,\s*type=<[^>]*>)?$`)
	localSource  = regexp.MustCompile(`^[LG]\[['"]([^'"]+)['"]\]`)
	moduleSource = regexp.MustCompile(`\._modules\[['"]([^'"]+)['"]\]`)
	eqGuard      = regexp.MustCompile(`^(.+?)\s*==\s*(.+)$`) // cutEq's rule, and its way for a text with a line break
	resumeFn     = regexp.MustCompile(`^torch_dynamo_resume_in_(.+)_at_(\d+)$`)
	intRange     = regexp.MustCompile(`^([A-Za-z_][\w\[\]'".]*)\s*(<=|<|>=|>)\s*(-?\d+)$`)
	dictContains = regexp.MustCompile(`^(not )?___dict_contains\((.+?),\s*(.+)\)$`)
	hasattrGuard = regexp.MustCompile(`^(not )?hasattr\((.+?),\s*['"]([^'"]+)['"]\)$`)
	noneGuard    = regexp.MustCompile(`^(.+?) is (not )?None$`)
	globalGuard  = regexp.MustCompile(`^(?:(not) (G\[['"][^'"]+['"]\])|len\((G\[['"][^'"]+['"]\])\)\s*==\s*(\d+)|(G\[['"][^'"]+['"]\]))$`)
	enumCompare  = regexp.MustCompile(`\b(?:is(?: not)?|[!=]=)\s+((?:[A-Za-z_]\w*\.)*[A-Z]\w*\.[A-Z][A-Z0-9_]*)\b`)
)

// Classify classifies one guard-failure text as printed by any torch version: 2.6's "tensor 'L['x']' size
// mismatch at index 0. expected 4, actual 8", 2.14's "scale == 2.0  # x = x * scale  # r.py:16 in f", value
// guards, ___check_obj_id, ___check_global_state, len(), the parameter hint. Unknown texts are class "other".
func Classify(text string) Class {
	g := StripGuardComment(text)
	gc := Class{Class: "other", Dim: -1}
	switch {
	case strings.Contains(g, "Guard failed on a parameter") || strings.Contains(g, "force_parameter_static_shapes"):
		gc.Class, gc.Detail = "param_shape", "parameter shape"
		return gc
	case strings.HasPrefix(g, "tensor '"):
		if classifyTensor(g, &gc) {
			return gc
		}
	}
	switch {
	case strings.Contains(g, "___check_global_state") || strings.Contains(g, "GLOBAL_STATE") ||
		strings.Contains(g, "grad_mode") || strings.Contains(g, "is_grad_enabled") || strings.Contains(g, "autocast"):
		gc.Class, gc.Detail = "global_state", "global state"
		if i := strings.Index(g, "GLOBAL_STATE changed:"); i >= 0 {
			gc.Detail += ": " + strings.TrimSpace(g[i+len("GLOBAL_STATE changed:"):])
		}
	case strings.Contains(g, "___check_current_backend") || strings.Contains(g, "BACKEND_MATCH"):
		gc.Class, gc.Detail = "backend", "backend changed"
	case strings.HasPrefix(g, "___check_obj_id(") || strings.HasPrefix(g, "ID_MATCH"):
		gc.Class = "obj_id"
		gc.Source = callSource(g)
		gc.Detail = "object identity of " + cmp.Or(gc.Source, "an argument")
		if !strings.HasPrefix(g, "___check_obj_id(G[") && !strings.Contains(gc.Source, "__") && StaticObjectID(g) {
			// 2.6 guards True, False and None by identity; CPython keeps them in the interpreter's own data, whose
			// addresses are small where heap objects' are not: a guess from the id, said as one
			gc.Class = "singleton"
			gc.Detail = cmp.Or(gc.Source, "an argument") + " is True, False or None (guessed from its object id)"
		} else if m := enumCompare.FindStringSubmatch(Code(text)); m != nil {
			// the line that made the guard compares the object with a class's member (2.14 prints that line):
			// an Enum member, one of a fixed set
			gc.Class, gc.New = "enum", m[1]
			gc.Detail = gc.Source + " compared with " + m[1]
		}
	case strings.Contains(g, "___dict_contains("):
		classifyDictKey(g, &gc)
	case strings.Contains(g, "hasattr("):
		if m := hasattrGuard.FindStringSubmatch(g); m != nil {
			gc.Class, gc.Source = "hasattr", NormalizeSource(m[2])
			gc.Detail = "hasattr(" + gc.Source + ", '" + m[3] + "')"
			gc.Old = "True"
			if m[1] != "" {
				gc.Old = "False"
			}
		} else {
			classifyExpr(g, &gc)
		}
	case IsClosureCell(g): // a variable of an enclosing scope (closure_cell.go), before G['fn']'s global
		classifyClosureCell(text, g, &gc)
	case strings.Contains(g, "G["):
		if !classifyGlobal(g, &gc) {
			classifyExpr(g, &gc)
		}
	case strings.HasSuffix(g, " None"):
		if m := noneGuard.FindStringSubmatch(g); m != nil {
			gc.Class, gc.Source = "none", NormalizeSource(m[1])
			gc.Old = "None"
			if m[2] != "" {
				gc.Old = "not None"
			}
			gc.Detail = gc.Source + " is " + gc.Old
		} else {
			classifyExpr(g, &gc)
		}
	case strings.HasPrefix(g, "___check_type_id(") || strings.HasPrefix(g, "TYPE_MATCH") || strings.HasPrefix(g, "isinstance("):
		gc.Class = "type"
		gc.Source = callSource(g)
		gc.Detail = "type of " + cmp.Or(gc.Source, "an argument")
	default:
		classifyExpr(g, &gc)
		if gc.Class == "value_int" && strings.Contains(text, NNModuleIntStatic) {
			// an int kept on an nn.Module, which torch says it keeps static (2.14's hint on the guard): no
			// automatic dynamic, every value compiles again
			gc.Class = "module_attr"
		}
	}
	return gc
}

// classifyExpr reads len(), size/stride and == guards. Each regexp runs once, and only on a text that has what
// it needs ("len(", ".size()[", "=="): one pass per guard, as every recompile record has its own values.
func classifyExpr(g string, gc *Class) {
	var m []string
	if strings.HasPrefix(g, "len(") {
		m = lenGuard.FindStringSubmatch(g)
	}
	if m != nil {
		gc.Class, gc.Source, gc.Old = "length", NormalizeSource(m[1]), m[2]
		gc.Detail = "len(" + gc.Source + ") == " + m[2]
		return
	}
	if strings.Contains(g, ".size()[") || strings.Contains(g, ".shape[") || strings.Contains(g, ".stride()[") {
		m = SizeExpr.FindStringSubmatch(g)
	}
	var eq []string
	if m == nil {
		eq = cutEq(g)
	}
	switch {
	case m != nil:
		gc.Class, gc.Source = "size", NormalizeSource(m[1])
		if m[2] == "stride()" {
			gc.Class = "stride"
		}
		gc.Dim, _ = strconv.Atoi(m[3])
		if eq := cutEq(g); eq != nil && isIntLiteral(strings.TrimSpace(eq[2])) {
			gc.Old = strings.TrimSpace(eq[2])
		}
		gc.Detail = g
	case eq != nil:
		src, val := NormalizeSource(strings.TrimSpace(eq[1])), strings.TrimSpace(eq[2])
		gc.Source, gc.Old, gc.Detail = src, val, src+" == "+val
		gc.Class = valueClass(val)
		if gc.Class == "value_float" && strings.HasPrefix(src, "___stack") {
			gc.Class = "stack_float"
		}

	case strings.ContainsAny(g, "<>"):
		// a range guard on an int made dynamic (2.14 "ids[0] <= 40", 2.6 "L['ids'][0] <= 40"): the code branched on
		// the int's value, and a new value fell outside the range its graph was compiled for
		if r := intRange.FindStringSubmatch(g); r != nil {
			gc.Class, gc.Source = "value_int", NormalizeSource(r[1])
			gc.Detail = gc.Source + " " + r[2] + " " + r[3]
			return
		}
		gc.Detail = text.OneLine(g, 80)
	default:
		gc.Detail = text.OneLine(g, 80)
	}
}

// cutEq splits "SRC == VALUE" at its first "==" with something on both sides, as the regexp ^(.+?)\s*==\s*(.+)$
// would (the whole text, the source and the value; nil when there is no such "=="), without the regexp for a
// one-line text: it runs on every value guard.
func cutEq(g string) []string {
	if strings.IndexByte(g, '\n') >= 0 {
		return eqGuard.FindStringSubmatch(g)
	}
	for from := 0; ; {
		i := strings.Index(g[from:], "==")
		if i < 0 {
			return nil
		}
		i += from
		src := strings.TrimRight(g[:i], " \t\r\f")
		if src == "" && i > 0 {
			src = g[:1] // only spaces in front: (.+?) takes the first
		}
		if src != "" {
			if val := strings.TrimLeft(g[i+2:], " \t\r\f"); val != "" {
				return []string{g, src, val}
			}
			// "a == " with only spaces after: the regexp's \s* gives them back to (.+)
			if rest := g[i+2:]; rest != "" {
				return []string{g, src, rest[len(rest)-1:]}
			}
		}
		from = i + 1
	}
}

func callSource(g string) string {
	if m := callArg.FindStringSubmatch(g); m != nil {
		return NormalizeSource(m[1])
	}
	return ""
}

// Code is the line of user code 2.14 prints after a guard ("x  # if mode is Mode.A:  # r.py:12 in f" → "if
// mode is Mode.A:"), or "".
func Code(text string) string {
	g := StripGuardComment(text)
	if len(g) >= len(strings.TrimSpace(text)) {
		return ""
	}
	rest := strings.TrimSpace(text[strings.Index(text, g)+len(g):])
	rest = strings.TrimSpace(strings.TrimPrefix(rest, "#"))
	if i := strings.Index(rest, "  # "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// classifyDictKey reads "[not ]___dict_contains('mask', batch)": the dict's key set is guarded (an optional key,
// not a length).
func classifyDictKey(g string, gc *Class) {
	m := dictContains.FindStringSubmatch(g)
	if m == nil {
		gc.Class, gc.Detail = "dict_key", text.OneLine(g, 80)
		return
	}
	key, dict := strings.TrimSpace(m[2]), strings.TrimSpace(m[3])
	gc.Class, gc.Source = "dict_key", NormalizeSource(dict)
	gc.Old = "present"
	if m[1] != "" {
		gc.Old = "absent"
	}
	gc.Detail = "key " + key + " " + gc.Old + " in " + gc.Source
}

// classifyGlobal reads a guard on a module-level container's contents: "not G['history']" (empty or not),
// "len(G['history']) == 1", "G['cache']". 2.14 prints G['…'] for globals as 2.6 does.
func classifyGlobal(g string, gc *Class) bool {
	m := globalGuard.FindStringSubmatch(g)
	if m == nil {
		return false
	}
	gc.Class = "global_container"
	switch {
	case m[2] != "":
		gc.Source, gc.Old = NormalizeSource(m[2]), "empty"
		gc.Detail = gc.Source + " empty"
	case m[3] != "":
		gc.Source, gc.Old = NormalizeSource(m[3]), m[4]
		gc.Detail = "len(" + gc.Source + ") == " + m[4]
	default:
		gc.Source, gc.Old = NormalizeSource(m[5]), "non-empty"
		gc.Detail = gc.Source + " non-empty"
	}
	return true
}

// StaticObjectID reports an identity guard on an id below 2²⁶ ("___check_obj_id(L['training'], 10519872)"):
// an object of the interpreter's static data (True, False, None in a non-PIE python3), not one made at run time
// (heap objects: pymalloc's arenas are mapped high). Not asked of globals and dunder attributes: classes and code
// objects can sit low in the heap (testdata: G['…'].Tensor at 82181376, ….__code__ at 125680000).
func StaticObjectID(g string) bool {
	_, rest, ok := strings.Cut(g, ",")
	if !ok {
		return false
	}
	rest = strings.TrimSpace(rest)
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > 10 || n < len(rest) && rest[n] != ')' {
		return false
	}
	id, err := strconv.ParseUint(rest[:n], 10, 64)
	return err == nil && id < StaticIDLimit
}

// StaticIDLimit is StaticObjectID's limit, which a guard's shape also says of each number (guardShapeKey).
const StaticIDLimit = 1 << 26

// NNModuleIntStatic is the hint 2.14's guard on an nn.Module int attribute carries (torch/_dynamo/variables/
// builder.py: is_int_specialization_case): torch keeps the value static.
const NNModuleIntStatic = "considers integer attributes of the nn.Module to be static"
