package logparse

import (
	"bytes"
	"strings"
)

// The `dynamic` log (TORCH_LOGS=dynamic: torch.fx.experimental.symbolic_shapes and its siblings, at INFO) says,
// for each compile, when its shape environment is made and which inputs it makes symbolic. Real 2.6 and 2.14.1
// lines (testdata/recorded/dynamic-false):
//
//	I1127 05:36:29.978000 22710 torch/fx/experimental/symbolic_shapes.py:4110] [0/1] create_env
//	I1127 05:36:29.979000 22710 torch/_dynamo/pgo.py:483] [0/1] marking L['x'] as dynamic (from automatic dynamic/PGO)
//	I1127 05:36:30.021000 22710 torch/fx/experimental/symbolic_shapes.py:5960] [0/1] create_symbol s77 = 16 for L['x'].size()[0] [2, int_oo] return x * 2  # …
//
// (the marking line is 2.14's, logged by pgo.py through the symbolic_shapes logger). A compile that keeps every
// input static (torch.compile(dynamic=False), mark_static) logs create_env and no create_symbol. A size that
// matches one already made symbolic in the same compile takes that symbol (duck sizing) with only a DEBUG line,
// "create_symbol s0 duck sized L['y'].size()[0]", which is read too. Under automatic_dynamic_shapes_mark_as =
// "unbacked" the symbol is an unbacked one: "create_unbacked_symint u0 [-int_oo, int_oo] L['x'].size()[0]" (2.14.1;
// an unbacked symbol of no input, from .item(), names where it was made instead).

// ShapeEventKind is what a KindShapeEnv record says.
type ShapeEventKind uint8

// Shape-environment events.
const (
	ShapeEnvCreated ShapeEventKind = iota // "create_env": the dynamic log is on for this compile
	SymbolCreated                         // "create_symbol sN = V for SOURCE …" (or "… duck sized SOURCE"), "create_unbacked_symint uN [lo, hi] SOURCE"
	MarkedDynamic                         // "marking SOURCE as dynamic (…)" (2.14: automatic dynamic/PGO)
	// ShapesTraced: a TORCH_TRACE file holds this compile to its compilation_metrics and traces the symbols its
	// compiles make: a symbol this compile made would be among its create_symbol events (logparse/trace: shapes.go)
	ShapesTraced
)

var shapeEventNames = [...]string{"create_env", "create_symbol", "marking_dynamic", "shapes_traced"}

func (k ShapeEventKind) String() string {
	if int(k) < len(shapeEventNames) {
		return shapeEventNames[k]
	}
	return "unknown"
}

// ShapeEvent is the payload of a KindShapeEnv record: one line of the dynamic log about the compile whose id the
// record carries, or (FromTrace) one create_symbol or create_unbacked_symbol event of a TORCH_TRACE file, or its
// ShapesTraced.
type ShapeEvent struct {
	Event  ShapeEventKind
	Symbol string // SymbolCreated: "s77", "zf0"
	Value  string // SymbolCreated: the value it was made for ("16", "1.5"); "" for a duck-sized one
	Source string // SymbolCreated, MarkedDynamic: as torch names it ("L['x'].size()[0]", "L['n']", "L['x']")
	Reason string // MarkedDynamic: the words in parentheses ("from automatic dynamic/PGO")
	// Unbacked: a create_unbacked_sym* line (no value); Source is "" where it names no input (a stack summary)
	Unbacked bool
}

var (
	hCreateEnv    = []byte("create_env")
	hCreateSymbol = []byte("create_symbol ")
	hCreateUnback = []byte("create_unbacked_sym")
	hMarking      = []byte("marking ")
	hAsDynamic    = []byte(" as dynamic")
)

// isShapeHead reports a message that is a line of the dynamic log (strongHead: each is a record of its own, also
// when two share a prefix to the millisecond).
func isShapeHead(b []byte) bool {
	switch b[0] {
	case 'c':
		return bytes.Equal(b, hCreateEnv) || bytes.HasPrefix(b, hCreateSymbol) || bytes.HasPrefix(b, hCreateUnback)
	case 'm':
		return bytes.HasPrefix(b, hMarking) && bytes.Contains(b, hAsDynamic)
	}
	return false
}

// parseShapeLine reads one dynamic-log message; false for text that only starts like one.
func parseShapeLine(l string) (*ShapeEvent, bool) {
	switch {
	case l == "create_env":
		return &ShapeEvent{Event: ShapeEnvCreated}, true
	case strings.HasPrefix(l, "create_symbol "):
		rest := l[len("create_symbol "):]
		sym, rest, ok := strings.Cut(rest, " ")
		if !ok || sym == "" {
			return nil, false
		}
		if src, ok := strings.CutPrefix(rest, "duck sized "); ok {
			if src = strings.TrimSpace(src); src == "" {
				return nil, false
			}
			return &ShapeEvent{Event: SymbolCreated, Symbol: sym, Source: src}, true
		}
		rest, ok = strings.CutPrefix(rest, "= ")
		if !ok {
			return nil, false
		}
		val, rest, ok := strings.Cut(rest, " for ")
		if !ok || val == "" {
			return nil, false
		}
		src := sourceToken(rest)
		if src == "" {
			return nil, false
		}
		return &ShapeEvent{Event: SymbolCreated, Symbol: sym, Value: val, Source: src}, true
	case strings.HasPrefix(l, "create_unbacked_sym"):
		// "create_unbacked_symint u0 [-int_oo, int_oo] L['x'].size()[0]"
		_, rest, ok := strings.Cut(l, " ")
		if !ok {
			return nil, false
		}
		sym, rest, ok := strings.Cut(rest, " [")
		if !ok || sym == "" || strings.ContainsRune(sym, ' ') {
			return nil, false
		}
		_, rest, ok = strings.Cut(rest, "]")
		if !ok {
			return nil, false
		}
		ev := &ShapeEvent{Event: SymbolCreated, Symbol: sym, Unbacked: true}
		if src := strings.TrimSpace(rest); src != "" && !strings.ContainsRune(src, ' ') {
			ev.Source = src
		}
		return ev, true
	case strings.HasPrefix(l, "marking "):
		src, rest, ok := strings.Cut(l[len("marking "):], " as dynamic")
		if !ok || src == "" || strings.ContainsRune(src, ' ') || rest != "" && rest[0] != ' ' {
			return nil, false
		}
		ev := &ShapeEvent{Event: MarkedDynamic, Source: src}
		if r := strings.TrimSpace(rest); strings.HasPrefix(r, "(") && strings.HasSuffix(r, ")") {
			ev.Reason = r[1 : len(r)-1]
		}
		return ev, true
	}
	return nil, false
}

// sourceToken is the source a create_symbol line names: up to the first space outside brackets and quotes
// ("L['x'].size()[0] [2, int_oo] return …" → "L['x'].size()[0]").
func sourceToken(s string) string {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[' || c == '(':
			depth++
		case c == ']' || c == ')':
			depth--
		case c == ' ' && depth <= 0:
			return s[:i]
		}
	}
	return s
}

// isDynamicEmitter reports an emitter of the dynamic log's loggers (torch/_logging/_registrations.py DYNAMIC, 2.6
// and 2.14.1): symbolic_shapes, sym_node, recording, as a glog path or a dated format's logger name.
func isDynamicEmitter(e []byte) bool {
	// one search for the package's path (every head line's emitter is checked until the log shows up), then its files
	for rest := e; ; {
		i := bytes.Index(rest, []byte("fx/experimental/"))
		if i < 0 {
			break
		}
		rest = rest[i+len("fx/experimental/"):]
		if bytes.HasPrefix(rest, []byte("symbolic_shapes.py")) || bytes.HasPrefix(rest, []byte("sym_node.py")) ||
			bytes.HasPrefix(rest, []byte("recording.py")) {
			return true
		}
	}
	name, ok := bytes.CutPrefix(e, []byte("torch.fx.experimental."))
	return ok && (bytes.HasPrefix(name, []byte("symbolic_shapes")) || bytes.HasPrefix(name, []byte("sym_node")) ||
		bytes.HasPrefix(name, []byte("recording")))
}

// classifyShape makes a record of a dynamic-log line: a torch log line (not user output that reads the same).
func classifyShape(b *builder) {
	r := b.rec
	e := r.Emitter
	torch := strings.HasPrefix(e, "torch/") || strings.HasPrefix(e, "torch.") || strings.Contains(e, "/torch/") // isTorchEmitter
	if b.style != styleGlog && b.style != styleDate || len(r.Lines) == 0 || !torch {
		return
	}
	if ev, ok := parseShapeLine(r.Lines[0]); ok {
		r.Kind, r.Shape = KindShapeEnv, ev
	}
}
