package trace

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// cacheFields reads the fields of a cache artifact's payload that a CacheEvent keeps, as json.Unmarshal into a
// cachePayload reads them, without decoding or checking the rest: the cache key's components (most of the
// payload's bytes, tens of KB) are only skipped, a string at a time with a search for its closing quote. valid
// is false when the text is no JSON object (a payload cut at the line limit): then p is empty, as Unmarshal
// leaves it. typeErr is true when a field holds no string (Unmarshal then fills the other fields and fails).
// What is skipped is checked for its structure only, not byte by byte (a control byte inside a skipped string
// passes), and a field named twice takes its last value, as Unmarshal does. ascii is false when a field's text
// holds a byte over 0x7f (the text's bytes then decode as its ValidString does only where they are UTF-8).
func cacheFields(text string) (p cachePayload, valid, typeErr, ascii bool) {
	ascii = true
	s := &jsonScan{s: text}
	s.ws()
	if s.peek() != '{' { // another value: Unmarshal fails on its type (null: it leaves p as it is)
		null := strings.HasPrefix(s.s[s.i:], "null")
		if !s.skipValue(0) {
			return cachePayload{}, false, false, ascii
		}
		s.ws()
		return cachePayload{}, s.i == len(s.s), s.i == len(s.s) && !null, ascii
	}
	s.i++
	s.ws()
	if !s.eat('}') {
		for {
			s.ws()
			key, ok := s.str()
			if !ok {
				return cachePayload{}, false, false, ascii
			}
			s.ws()
			if !s.eat(':') {
				return cachePayload{}, false, false, ascii
			}
			s.ws()
			field := p.field(key)
			switch {
			case field != nil && s.peek() == '"':
				from := s.i
				if !s.skipString() {
					return cachePayload{}, false, false, ascii
				}
				ascii = ascii && isASCII(s.s[from:s.i])
				v, ok := unquote(s.s[from:s.i])
				if !ok {
					return cachePayload{}, false, false, ascii
				}
				*field = v
			case field != nil && strings.HasPrefix(s.s[s.i:], "null"): // leaves the field as it is
				s.i += len("null")
			default:
				if field != nil {
					typeErr = true
				}
				if !s.skipValue(0) {
					return cachePayload{}, false, false, ascii
				}
			}
			s.ws()
			if s.eat('}') {
				break
			}
			if !s.eat(',') {
				return cachePayload{}, false, false, ascii
			}
		}
	}
	s.ws()
	if s.i != len(s.s) {
		return cachePayload{}, false, false, ascii
	}
	return p, true, typeErr, ascii
}

// unquote decodes the JSON string tok ("…") as json.Unmarshal into a string decodes it: one of printable ASCII
// without a backslash is its bytes, another goes to Unmarshal (its escapes, control bytes and UTF-8).
func unquote(tok string) (string, bool) {
	plain := len(tok) >= 2 && tok[0] == '"' && tok[len(tok)-1] == '"'
	for i := 1; plain && i < len(tok)-1; i++ {
		c := tok[i]
		plain = c >= ' ' && c < utf8.RuneSelf && c != '\\' && c != '"'
	}
	if plain {
		return strings.Clone(tok[1 : len(tok)-1]), true
	}
	var v string
	if json.Unmarshal([]byte(tok), &v) != nil {
		return "", false
	}
	return v, true
}

// unmarshalInt is json.Unmarshal(raw, &n) into n (left as it is on an error or a null): a plain integer read
// without encoding/json.
func unmarshalInt(raw []byte, n *int) error {
	s := &jsonScan{s: string(raw)}
	if v, ok := s.intValue(); ok && s.i == len(s.s) {
		*n = v
		return nil
	}
	return json.Unmarshal(raw, n)
}

func isASCII(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] >= 0x80 {
			return false
		}
	}
	return true
}

// field is the field of p a payload key names (its JSON name, in any case, as Unmarshal matches it), nil for the
// others.
func (p *cachePayload) field(key string) *string {
	switch {
	case strings.EqualFold(key, "cache_state"):
		return &p.State
	case strings.EqualFold(key, "cache_bypass_reason"):
		return &p.Reason
	case strings.EqualFold(key, "cache_status_detailed"):
		return &p.Detailed
	case strings.EqualFold(key, "key"):
		return &p.Key
	}
	return nil
}

// jsonScan walks JSON text without decoding it.
type jsonScan struct {
	s string
	i int
}

// maxJSONDepth is the deepest nesting skipped, as encoding/json's limit.
const maxJSONDepth = 10000

func (s *jsonScan) peek() byte {
	if s.i < len(s.s) {
		return s.s[s.i]
	}
	return 0
}

func (s *jsonScan) eat(c byte) bool {
	if s.peek() == c && s.i < len(s.s) {
		s.i++
		return true
	}
	return false
}

func (s *jsonScan) ws() {
	for s.i < len(s.s) {
		switch s.s[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// str reads a string (an object's key) and decodes it.
func (s *jsonScan) str() (string, bool) {
	from := s.i
	if !s.skipString() {
		return "", false
	}
	raw := s.s[from+1 : s.i-1]
	if !strings.ContainsRune(raw, '\\') {
		return raw, true
	}
	var out string
	if json.Unmarshal([]byte(s.s[from:s.i]), &out) != nil {
		return "", false
	}
	return out, true
}

// skipString moves past the string at s.i: to the first quote after it that no backslash escapes.
func (s *jsonScan) skipString() bool {
	if !s.eat('"') {
		return false
	}
	for {
		q := strings.IndexByte(s.s[s.i:], '"')
		if q < 0 {
			return false
		}
		s.i += q + 1
		n := 0 // the backslashes before the quote: an odd number escape it
		for k := s.i - 2; k >= 0 && s.s[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return true
		}
	}
}

// skipValue moves past the value at s.i.
func (s *jsonScan) skipValue(depth int) bool {
	if depth > maxJSONDepth {
		return false
	}
	switch c := s.peek(); {
	case c == '"':
		return s.skipString()
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		s.i++
		s.ws()
		if s.eat(end) {
			return true
		}
		for {
			s.ws()
			if c == '{' {
				if !s.skipString() {
					return false
				}
				s.ws()
				if !s.eat(':') {
					return false
				}
				s.ws()
			}
			if !s.skipValue(depth + 1) {
				return false
			}
			s.ws()
			if s.eat(end) {
				return true
			}
			if !s.eat(',') {
				return false
			}
		}
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		from := s.i
		for s.i < len(s.s) && strings.IndexByte("+-0123456789.eE", s.s[s.i]) >= 0 {
			s.i++
		}
		return validNumber(s.s[from:s.i])
	}
	return false
}

// validNumber reports whether t is a JSON number (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), as json.Valid
// would, without its scanner.
func validNumber(t string) bool {
	i := 0
	digits := func() int {
		from := i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		return i - from
	}
	if i < len(t) && t[i] == '-' {
		i++
	}
	if i < len(t) && t[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(t) && t[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(t)
}

func (s *jsonScan) literal(w string) bool {
	if strings.HasPrefix(s.s[s.i:], w) {
		s.i += len(w)
		return true
	}
	return false
}

// unmarshalString is json.Unmarshal(raw, s) into a string (left as it is on an error or a null), a string token
// decoded by unquote.
func unmarshalString(raw []byte, s *string) error {
	if len(raw) > 0 && raw[0] == '"' {
		if v, ok := unquote(string(raw)); ok {
			*s = v
			return nil
		}
	}
	return json.Unmarshal(raw, s)
}
