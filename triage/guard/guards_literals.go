package guard

import "github.com/torchtriage/torchtriage/triage/numshape"

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

// isFloatLiteral and isIntLiteral say what number literal a value is (numshape: the literals' forms live with the
// numbers' shapes).
var isFloatLiteral, isIntLiteral = numshape.IsFloat, numshape.IsInt
