package guard

import (
	"slices"
	"strconv"
	"strings"
)

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
func dispatchKeys(g string, gc *Class) bool {
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
func classifyTensor(g string, gc *Class) bool {
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
