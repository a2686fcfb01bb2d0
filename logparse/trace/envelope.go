package trace

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"unsafe"
)

// A compilation_metrics envelope is ~40 KB, most of it Inductor's, Dynamo's and functorch's configs as JSON
// strings that nothing here reads; encoding/json checks and skips every byte of them. decodeEnvelope hands it
// the envelope without them.

// slimFrom is the size from which an envelope is slimmed before it is decoded: smaller ones are decoded whole.
const slimFrom = 4 << 10

var errNoJSON = errors.New("not a JSON object")

// metricsKeys name the envelope members whose object is a traceMetrics; metricsFields are the JSON names of
// what traceMetrics reads (its fields and metricTimes').
var (
	metricsKeys   = []string{"compilation_metrics", "bwd_compilation_metrics", "compilation_metrics_runtime", "bwd_compilation_metrics_runtime"}
	metricsFields = jsonFieldNames(reflect.TypeFor[traceMetrics]())
)

// jsonFieldNames are the JSON names of a struct's fields, those of its embedded structs included.
func jsonFieldNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct:
			out = append(out, jsonFieldNames(f.Type)...)
		case tag == "-" || !f.IsExported():
		case tag != "":
			out = append(out, tag)
		default:
			out = append(out, f.Name)
		}
	}
	return out
}

// foldIn reports whether one of names is key in any case (how encoding/json matches a key to a field).
func foldIn(key string, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(key, n) {
			return true
		}
	}
	return false
}

// decodeEnvelope is json.Unmarshal(body, env), with the members of a large envelope's metrics objects that
// traceMetrics does not read left out first (an unknown member is ignored by Unmarshal anyway, whatever it
// holds). What is left out is checked for its structure only, not byte by byte (jsonScan).
func decodeEnvelope(body []byte, env *envelope) error {
	if len(body) > 0 && readEnvelope(unsafe.String(&body[0], len(body)), env) {
		return nil // the shapes torch writes, read without encoding/json (decode.go)
	}
	if len(body) < slimFrom {
		return json.Unmarshal(body, env)
	}
	slim, ok := slimEnvelope(unsafe.String(&body[0], len(body)))
	if !ok {
		return errNoJSON
	}
	return json.Unmarshal(slim, env)
}

// slimEnvelope copies an envelope without the members of its metrics objects that traceMetrics does not read;
// ok is false when it is no JSON object.
func slimEnvelope(text string) (slim []byte, ok bool) {
	s := &jsonScan{s: text}
	s.ws()
	if !s.eat('{') {
		return nil, false
	}
	out := make([]byte, 0, 4<<10)
	out = append(out, '{')
	s.ws()
	if s.eat('}') {
		return append(out, '}'), s.end()
	}
	for n := 0; ; n++ {
		from, key, ok := s.member()
		if !ok {
			return nil, false
		}
		if n > 0 {
			out = append(out, ',')
		}
		if s.peek() == '{' && foldIn(key, metricsKeys) {
			out = append(out, text[from:s.i]...)
			if out, ok = s.slimObject(out, metricsFields); !ok {
				return nil, false
			}
		} else {
			if !s.skipValue(0) {
				return nil, false
			}
			out = append(out, text[from:s.i]...)
		}
		s.ws()
		if s.eat('}') {
			return append(out, '}'), s.end()
		}
		if !s.eat(',') {
			return nil, false
		}
	}
}

// slimObject appends the object at s.i to out with only the members that keep names.
func (s *jsonScan) slimObject(out []byte, keep []string) ([]byte, bool) {
	s.i++ // '{'
	out = append(out, '{')
	s.ws()
	if s.eat('}') {
		return append(out, '}'), true
	}
	kept := 0
	for {
		from, key, ok := s.member()
		if !ok {
			return nil, false
		}
		if !s.skipValue(1) {
			return nil, false
		}
		if foldIn(key, keep) {
			if kept > 0 {
				out = append(out, ',')
			}
			out = append(out, s.s[from:s.i]...)
			kept++
		}
		s.ws()
		if s.eat('}') {
			return append(out, '}'), true
		}
		if !s.eat(',') {
			return nil, false
		}
	}
}

// end reports whether nothing but blanks follows.
func (s *jsonScan) end() bool {
	s.ws()
	return s.i == len(s.s)
}

// member reads a member's `"key":` at s.i, with the spaces around: where the member starts, and its key.
func (s *jsonScan) member() (from int, key string, ok bool) {
	s.ws()
	from = s.i
	if key, ok = s.str(); !ok {
		return from, "", false
	}
	s.ws()
	if !s.eat(':') {
		return from, "", false
	}
	s.ws()
	return from, key, true
}
