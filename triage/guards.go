package triage

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// GuardClass is one classified guard failure: which class of guard failed, on which input, and (for sizes and
// tensor properties) the old and new value. Class is one of playbooks.GuardClasses.
type GuardClass struct {
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
	sizeExpr       = regexp.MustCompile(`([A-Za-z_][\w\[\]'".]*?)\.(size\(\)|shape|stride\(\))\[(\d+)\]`)
	lenGuard       = regexp.MustCompile(`^len\((.+)\)\s*==\s*(\d+)$`)
	callArg        = regexp.MustCompile(`^\w+\((.+?),\s*-?\d+\)(?:,\s*type=<[^>]*>)?$`)
	localSource    = regexp.MustCompile(`^[LG]\[['"]([^'"]+)['"]\]`)
	moduleSource   = regexp.MustCompile(`\._modules\[['"]([^'"]+)['"]\]`)
	eqGuard        = regexp.MustCompile(`^(.+?)\s*==\s*(.+)$`) // cutEq's rule, and its way for a text with a line break
	resumeFn       = regexp.MustCompile(`^torch_dynamo_resume_in_(.+)_at_(\d+)$`)
)

// ClassifyGuard classifies one guard-failure text as printed by any torch version: 2.6's "tensor 'L['x']' size
// mismatch at index 0. expected 4, actual 8", 2.14's "scale == 2.0  # x = x * scale  # r.py:16 in f", value
// guards, ___check_obj_id, ___check_global_state, len(), the parameter hint. Unknown texts are class "other".
func ClassifyGuard(text string) GuardClass {
	g := StripGuardComment(text)
	gc := GuardClass{Class: "other", Dim: -1}
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
		gc.Detail = "object identity of " + orWhat(gc.Source, "an argument")
	case strings.HasPrefix(g, "___check_type_id(") || strings.HasPrefix(g, "TYPE_MATCH") || strings.HasPrefix(g, "isinstance("):
		gc.Class = "type"
		gc.Source = callSource(g)
		gc.Detail = "type of " + orWhat(gc.Source, "an argument")
	default:
		classifyExpr(g, &gc)
	}
	return gc
}

// classifyExpr reads len(), size/stride and == guards. Each regexp runs once, and only on a text that has what
// it needs ("len(", ".size()[", "=="): one pass per guard, as every recompile record has its own values.
func classifyExpr(g string, gc *GuardClass) {
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
		m = sizeExpr.FindStringSubmatch(g)
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
	default:
		gc.Detail = OneLine(g, 80)
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

// keySets reads "expected DispatchKeySet(A, B), actual DispatchKeySet(C, D)" into its two key lists.
func keySets(g string) (expected, actual []string, ok bool) {
	list := func(s string) []string {
		s, _, _ = strings.Cut(s, ")")
		var out []string
		for _, k := range strings.Split(s, ",") {
			if k = strings.TrimSpace(k); k != "" {
				out = append(out, k)
			}
		}
		return out
	}
	_, e, ok1 := strings.Cut(g, "expected DispatchKeySet(")
	_, a, ok2 := strings.Cut(g, "actual DispatchKeySet(")
	if !ok1 || !ok2 {
		return nil, nil, false
	}
	return list(e), list(a), true
}

// dispatchKeys classifies a dispatch key set mismatch: another backend key first (CUDA → CPU) is a device change,
// named by the two keys; else the keys added and removed (an autograd key: requires_grad) are named.
func dispatchKeys(g string, gc *GuardClass) bool {
	e, a, ok := keySets(g)
	if !ok || len(e) == 0 || len(a) == 0 {
		return false
	}
	gc.Detail = gc.Source + " dispatch key set "
	if e[0] != a[0] {
		gc.Class, gc.Old, gc.New = "device", e[0], a[0]
		gc.Detail += e[0] + "→" + a[0]
		return true
	}
	gc.Class, gc.Old, gc.New = "other", strings.Join(e, ", "), strings.Join(a, ", ")
	var diff []string
	for _, k := range a {
		if !slices.Contains(e, k) {
			diff = append(diff, "+"+k)
		}
	}
	for _, k := range e {
		if !slices.Contains(a, k) {
			diff = append(diff, "-"+k)
		}
	}
	gc.Detail += strings.Join(diff, " ")
	return true
}

// classifyTensor reads the "tensor 'SRC' … mismatch" family.
func classifyTensor(g string, gc *GuardClass) bool {
	if m := tensorIndexed.FindStringSubmatch(g); m != nil {
		gc.Class, gc.Source = m[2], NormalizeSource(m[1])
		gc.Dim, _ = strconv.Atoi(m[3])
		gc.Old, gc.New = m[4], m[5]
		if gc.Class == "size" {
			gc.Detail = gc.Source + "[" + m[3] + "] " + gc.Old + "→" + gc.New
		} else {
			gc.Detail = gc.Source + " stride[" + m[3] + "] " + gc.Old + "→" + gc.New
		}
		return true
	}
	m := tensorProperty.FindStringSubmatch(g)
	if m == nil {
		return false
	}
	gc.Source = NormalizeSource(m[1])
	switch m[2] {
	case "rank":
		gc.Class = "rank"
	case "dispatch key set":
		if dispatchKeys(m[3], gc) {
			return true
		}
		gc.Class = "other"
	default:
		gc.Class = m[2]
	}
	if ea := expectedActual.FindStringSubmatch(m[3]); ea != nil {
		gc.Old, gc.New = strings.TrimSpace(ea[1]), strings.TrimSpace(ea[2])
	} else if v := strings.TrimPrefix(strings.TrimSpace(m[3]), "expected "); v != m[3] {
		gc.Old = strings.TrimSuffix(v, ".")
	}
	gc.Detail = gc.Source + " " + m[2]
	if gc.Old != "" && gc.New != "" {
		gc.Detail += " " + gc.Old + "→" + gc.New
	} else if gc.Old != "" {
		gc.Detail += " (compiled for " + gc.Old + ")"
	}
	return true
}

func valueClass(v string) string {
	switch {
	case v == "True" || v == "False":
		return "value_bool"
	case len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0]:
		return "value_str"
	case isIntLiteral(v):
		return "value_int"
	case isFloatLiteral(v):
		return "value_float"
	}
	return "other"
}

// isFloatLiteral reports -?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][-+]?\d+|inf|nan) (no regexp: it runs on every value guard that is no int).
func isFloatLiteral(v string) bool {
	v = strings.TrimPrefix(v, "-")
	if v == "inf" || v == "nan" {
		return true
	}
	digits := func(s string) int { // how many leading ASCII digits
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		return n
	}
	n := digits(v)
	v = v[n:]
	if v == "" { // digits only: an int, not a float
		return false
	}
	dot := v[0] == '.'
	if dot {
		frac := digits(v[1:])
		if n == 0 && frac == 0 {
			return false
		}
		v = v[1+frac:]
		if v == "" {
			return true // 1. 1.5 .5
		}
		if n == 0 {
			return false // .5e3 is not one of its forms
		}
	}
	if n == 0 || v[0] != 'e' && v[0] != 'E' {
		return false
	}
	v = v[1:]
	if v != "" && (v[0] == '+' || v[0] == '-') {
		v = v[1:]
	}
	return v != "" && digits(v) == len(v)
}

// isIntLiteral reports -?[0-9]+ (no regexp: it runs on every value guard).
func isIntLiteral(v string) bool {
	v = strings.TrimPrefix(v, "-")
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

func callSource(g string) string {
	if m := callArg.FindStringSubmatch(g); m != nil {
		return NormalizeSource(m[1])
	}
	return ""
}

func orWhat(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// NormalizeSource turns Dynamo guard sources into the names users write: L['x'] → x, L['args'][0] → args[0],
// L['self']._modules['l1'].weight → self.l1.weight (2.14 already prints the short form).
func NormalizeSource(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "L[") || strings.HasPrefix(s, "G[") {
		s = localSource.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "._modules[") {
		s = moduleSource.ReplaceAllString(s, ".$1")
	}
	return s
}

// StripGuardComment removes the "# code  # file:line in fn" comment 2.14 appends to a guard (a '#' outside
// quotes preceded by a space) and surrounding spaces.
func StripGuardComment(s string) string {
	// Fast path: the first '#' (found by the vectorised search) with no quote before it decides alone.
	h := strings.IndexByte(s, '#')
	if h < 0 {
		return strings.TrimSpace(s)
	}
	if h > 0 && (s[h-1] == ' ' || s[h-1] == '\t') && strings.IndexByte(s[:h], '\'') < 0 && strings.IndexByte(s[:h], '"') < 0 {
		return strings.TrimSpace(s[:h])
	}
	return stripGuardCommentQuoted(s)
}

// stripGuardCommentQuoted is StripGuardComment reading every byte: quotes may hide a '#'.
func stripGuardCommentQuoted(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t'):
			return strings.TrimSpace(s[:i])
		}
	}
	return strings.TrimSpace(s)
}

// FoldFunction maps Dynamo's resume functions to the user's function: torch_dynamo_resume_in_step_at_10 → step,
// 10 (a resume function of a resume function folds to the user's function, keeping the latest resume line). Other names come
// back unchanged with line 0.
func FoldFunction(name string) (string, int) {
	if !strings.HasPrefix(name, "torch_dynamo_resume_in_") {
		return name, 0
	}
	return foldFunction(name)
}

type folded struct {
	fn   string
	line int
}

func foldFunction(name string) (string, int) {
	m := resumeFn.FindStringSubmatch(name)
	if m == nil {
		return name, 0
	}
	line, _ := strconv.Atoi(m[2])
	inner, _ := FoldFunction(m[1])
	return inner, line
}
