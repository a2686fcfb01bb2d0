package render

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// jsonAppender writes what encoding/json writes (MarshalIndent: HTML escaping, the indent) for the report's
// long lists' types, on values with every exported field filled at random: a field added to BreakSummary,
// RecompileSummary, Finding (or the types they hold) and not to json_report_lists.go fails here.
func TestAppendJSONMatchesEncoder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		indent := []string{" ", "  ", "\t"}[i%3]
		var b report.BreakSummary
		var r report.RecompileSummary
		var f findings.Finding
		for _, v := range []any{&b, &r, &f} {
			fillRandom(rng, reflect.ValueOf(v).Elem())
		}
		check := func(name string, v any, write func(w *jsonAppender)) {
			t.Helper()
			want, err := json.MarshalIndent(v, "", indent)
			if err != nil {
				t.Fatal(err)
			}
			w := jsonAppender{indent: indent}
			write(&w)
			if string(w.b) != string(want) {
				t.Fatalf("%s %d: jsonAppender wrote\n%s\nencoding/json\n%s", name, i, w.b, want)
			}
		}
		check("graph break", &b, func(w *jsonAppender) { w.breakJSON(&b) })
		check("recompile", &r, func(w *jsonAppender) { w.recompileJSON(&r) })
		check("finding", f, func(w *jsonAppender) { w.findingJSON(&f) })
	}
	w := jsonAppender{indent: " "}
	w.breakJSON(nil)
	w.recompileJSON(nil)
	if string(w.b) != "nullnull" {
		t.Errorf("nil elements: %q", w.b)
	}
}

// appendJSONString escapes as encoding/json does: every byte alone, and random strings of the characters
// that need care.
func TestAppendJSONStringMatchesEncoder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var cases []string
	for c := range 256 {
		cases = append(cases, string([]byte{byte(c)}), "a"+string([]byte{byte(c)})+"é")
	}
	for range 5000 {
		cases = append(cases, randomText(rng))
	}
	// long texts (the word-at-a-time path), and every special piece at every offset of a plain text
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(strings.Repeat("plain text ", rng.IntN(3)) + randomText(rng))
		}
		cases = append(cases, b.String())
	}
	for _, special := range []string{"\"", "\\", "<", ">", "&", "\n", "\x00", "\x1f", "\x7f", "é", "\u2028", "\xff"} {
		for at := range 24 {
			cases = append(cases, strings.Repeat("x", at)+special+strings.Repeat("y", 24-at))
		}
	}
	for _, s := range cases {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("%q: got %s, encoding/json %s", s, got, want)
		}
	}
}

// randomText is a short string of ASCII, control characters, HTML's special characters, multi-byte runes,
// U+2028/U+2029 and invalid UTF-8 (a stray continuation byte, a cut rune).
func randomText(rng *rand.Rand) string {
	pieces := []string{"a", "Z", "0", " ", "\"", "\\", "/", "<", ">", "&", "\n", "\r", "\t", "\b", "\f", "\x00",
		"\x1f", "\x7f", "é", "→", "€", "𝔘", "\u2028", "\u2029", "\xff", "\x80", "\xe2\x82", "\ufffd"}
	n := rng.IntN(12)
	if n == 0 && rng.IntN(2) == 0 {
		return ""
	}
	var out []byte
	for range n {
		out = append(out, pieces[rng.IntN(len(pieces))]...)
	}
	return string(out)
}

// fillRandom sets every exported field of v (recursively) at random: zero values, nil and empty slices, nil
// pointers and random texts, so each omitempty and null rule is met both ways.
func fillRandom(rng *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(randomText(rng))
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt([]int64{0, 0, 1, -1, 42, 1 << 40, -7}[rng.IntN(7)])
	case reflect.Uint8:
		v.SetUint(uint64(rng.IntN(256)))
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Slice:
		switch k := rng.IntN(4); k {
		case 0: // nil
		default:
			s := reflect.MakeSlice(v.Type(), k-1, k-1)
			for i := range k - 1 {
				fillRandom(rng, s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Pointer:
		if rng.IntN(3) > 0 {
			p := reflect.New(v.Type().Elem())
			fillRandom(rng, p.Elem())
			v.Set(p)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillRandom(rng, v.Field(i))
			}
		}
	}
}
