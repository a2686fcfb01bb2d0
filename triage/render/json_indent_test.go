package render

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// indentJSON gives json.Indent's bytes on what Marshal makes: nested and empty objects and arrays, strings with
// escaped quotes and backslashes, brackets, commas and colons inside strings, HTML-escaped characters.
func TestIndentJSONIsJSONIndent(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{`"`, `\`, `\\"`, `{`, `}`, `[`, `]`, `,`, `:`, `<a&b>`, "\n", "\t", "é", "x", " ", "\u2028"}
	var value func(depth int) any
	value = func(depth int) any {
		switch k := rng.IntN(7); {
		case depth > 4 || k == 0:
			var s strings.Builder
			for range rng.IntN(6) {
				s.WriteString(pieces[rng.IntN(len(pieces))])
			}
			return s.String()
		case k == 1:
			return rng.Float64() * 1e6
		case k == 2:
			return rng.IntN(2) == 0
		case k == 3:
			return nil
		case k == 4:
			out := []any{}
			for range rng.IntN(4) {
				out = append(out, value(depth+1))
			}
			return out
		default:
			out := map[string]any{}
			for range rng.IntN(4) {
				out[pieces[rng.IntN(len(pieces))]+"k"] = value(depth + 1)
			}
			return out
		}
	}
	for i := range 2000 {
		v := value(0)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", " ")
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.NewEncoder(&compact).Encode(v); err != nil { // HTML escaping as the encoder does it
			t.Fatal(err)
		}
		got := string(indentJSON(nil, bytes.TrimSuffix(compact.Bytes(), []byte("\n")), " ")) + "\n"
		if got != want.String() {
			t.Fatalf("case %d:\ngot  %q\nwant %q", i, got, want.String())
		}
	}
}
