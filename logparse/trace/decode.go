package trace

import (
	"encoding/json"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// readEnvelope decodes the envelopes torch writes without encoding/json: the members the events read are
// decoded here, the others only skipped (checked for their structure, as slimEnvelope checks what it leaves
// out). It gives up (ok false, env untouched) on whatever it does not read exactly as json.Unmarshal would:
// a key in other case or twice, a type Unmarshal would refuse, a member it does not decode itself
// (dynamo_start, the DDPOptimizer events); decodeEnvelope then decodes the envelope with encoding/json. Where
// Unmarshal decodes an envelope, readEnvelope gives up or gives the same (TestReadEnvelopeIsUnmarshal,
// FuzzReadEnvelope).
func readEnvelope(text string, env *envelope) (ok bool) {
	s := &jsonScan{s: text}
	var e envelope
	s.ws()
	if !s.eat('{') {
		return false
	}
	s.ws()
	if s.eat('}') {
		*env = e
		return s.end()
	}
	var seen uint32
	for {
		_, key, ok := s.member()
		if !ok {
			return false
		}
		f, known := envelopeMembers[key]
		if !known {
			if !plainKey(key) && foldIn(key, envelopeNames) {
				return false // a member in other case: Unmarshal's match
			}
			if !s.skipValue(0) {
				return false
			}
		} else {
			if seen&(1<<f) != 0 {
				return false // twice: Unmarshal merges
			}
			seen |= 1 << f
			if !s.envelopeMember(f, &e) {
				return false
			}
		}
		s.ws()
		if s.eat('}') {
			break
		}
		if !s.eat(',') {
			return false
		}
	}
	if !s.end() {
		return false
	}
	*env = e
	return true
}

// The envelope members readEnvelope decodes.
const (
	mStr = iota
	mMetrics
	mBwdMetrics
	mRtMetrics
	mBwdRtMetrics
	mArtifact
	mCreateSymbol
	mCreateUnbacked
	mFrameID
	mFrameCompileID
	mAttempt
	mRank
	mHasPayload
	mOther // a member of envelope readEnvelope leaves to encoding/json
)

var envelopeMembers = map[string]int{"str": mStr, "compilation_metrics": mMetrics, "bwd_compilation_metrics": mBwdMetrics,
	"compilation_metrics_runtime": mRtMetrics, "bwd_compilation_metrics_runtime": mBwdRtMetrics, "artifact": mArtifact,
	"create_symbol": mCreateSymbol, "create_unbacked_symbol": mCreateUnbacked, "frame_id": mFrameID,
	"frame_compile_id": mFrameCompileID, "attempt": mAttempt, "rank": mRank, "has_payload": mHasPayload,
	"dynamo_start": mOther, "optimize_ddp_split_graph": mOther, "optimize_ddp_split_child": mOther}

// envelopeNames are the JSON names of envelope's fields.
var envelopeNames = jsonFieldNames(reflect.TypeFor[envelope]())

// plainKey reports whether a key is ASCII without capitals: it matches a field's (ASCII, lower case) name in
// any case only when it is that name.
func plainKey(key string) bool {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c >= utf8.RuneSelf || c >= 'A' && c <= 'Z' {
			return false
		}
	}
	return true
}

func (s *jsonScan) envelopeMember(f int, e *envelope) bool {
	switch f {
	case mStr:
		return s.rawList(&e.Str)
	case mMetrics:
		return s.metricsObject(&e.Metrics)
	case mBwdMetrics:
		return s.metricsObject(&e.BwdMetrics)
	case mRtMetrics:
		return s.metricsObject(&e.RtMetrics)
	case mBwdRtMetrics:
		return s.metricsObject(&e.BwdRtMetrics)
	case mArtifact:
		if s.null() {
			return true
		}
		e.Artifact = &struct {
			Name string `json:"name"`
		}{}
		return s.object(func(key string) bool {
			if key == "name" {
				return s.stringInto(&e.Artifact.Name)
			}
			return s.skipMember(key, "name")
		})
	case mCreateSymbol:
		return s.symbolObject(&e.CreateSymbol)
	case mCreateUnbacked:
		return s.symbolObject(&e.CreateUnbacked)
	case mFrameID:
		return s.intPtr(&e.FrameID)
	case mFrameCompileID:
		return s.intPtr(&e.FrameCompileID)
	case mAttempt:
		return s.intPtr(&e.Attempt)
	case mRank:
		return s.intPtr(&e.Rank)
	case mHasPayload:
		return s.stringInto(&e.HasPayload)
	}
	return false
}

// skipMember skips the value of a member no field reads; false (give up) when its key is one of names in
// other case.
func (s *jsonScan) skipMember(key string, names ...string) bool {
	if !plainKey(key) && foldIn(key, names) {
		return false
	}
	return s.skipValue(1)
}

// object reads the object at s.i, each member's value by member (which is at the value).
func (s *jsonScan) object(member func(key string) bool) bool {
	if !s.eat('{') {
		return false
	}
	s.ws()
	if s.eat('}') {
		return true
	}
	for {
		_, key, ok := s.member()
		if !ok || !member(key) {
			return false
		}
		s.ws()
		if s.eat('}') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// null reads a null.
func (s *jsonScan) null() bool { return s.literal("null") }

// stringInto decodes a string into *dst (a null leaves it as it is, as Unmarshal does).
func (s *jsonScan) stringInto(dst *string) bool {
	if s.null() {
		return true
	}
	v, ok := s.stringValue()
	if ok {
		*dst = v
	}
	return ok
}

// stringValue decodes the string at s.i: its bytes when they need no decoding, else as Unmarshal decodes it.
func (s *jsonScan) stringValue() (string, bool) {
	from := s.i
	if !s.skipString() {
		return "", false
	}
	return unquote(s.s[from:s.i]) // a copy: the text may be a buffer read into again
}

// intValue reads a JSON integer that fits an int (as Unmarshal into an int reads it); false for any other value.
func (s *jsonScan) intValue() (int, bool) {
	from := s.i
	if s.peek() == '-' {
		s.i++
	}
	d := s.i
	for s.i < len(s.s) && s.s[s.i] >= '0' && s.s[s.i] <= '9' {
		s.i++
	}
	n := s.i - d
	if n == 0 || n > 18 || n > 1 && s.s[d] == '0' {
		return 0, false
	}
	if c := s.peek(); c == '.' || c == 'e' || c == 'E' {
		return 0, false
	}
	v, err := strconv.Atoi(s.s[from:s.i])
	return v, err == nil
}

// intPtr decodes an integer into a new int (null: nil).
func (s *jsonScan) intPtr(dst **int) bool { return nullable(s, dst, s.intValue) }

// floatPtr decodes a number into a new float64 (null: nil), as Unmarshal does (strconv.ParseFloat).
func (s *jsonScan) floatPtr(dst **float64) bool { return nullable(s, dst, s.floatValue) }

// stringPtr decodes a string into a new string (null: nil).
func (s *jsonScan) stringPtr(dst **string) bool { return nullable(s, dst, s.stringValue) }

// nullable decodes a null into a nil *dst, else the value into a new one (left as it is when value fails).
func nullable[T any](s *jsonScan, dst **T, value func() (T, bool)) bool {
	if s.null() {
		*dst = nil
		return true
	}
	v, ok := value()
	if ok {
		*dst = &v
	}
	return ok
}

// floatValue decodes a number (strconv.ParseFloat of its text).
func (s *jsonScan) floatValue() (float64, bool) {
	from := s.i
	if c := s.peek(); c != '-' && (c < '0' || c > '9') {
		return 0, false
	}
	if !s.skipValue(1) {
		return 0, false
	}
	v, err := strconv.ParseFloat(s.s[from:s.i], 64)
	return v, err == nil
}

// rawList decodes an array into a list of each value's text, as Unmarshal into []json.RawMessage.
func (s *jsonScan) rawList(dst *[]json.RawMessage) bool {
	out := []json.RawMessage{}
	isNull, ok := s.array(func() bool {
		from := s.i
		if !s.skipValue(1) {
			return false
		}
		out = append(out, json.RawMessage(s.s[from:s.i]))
		return true
	})
	if ok {
		*dst = out
		if isNull {
			*dst = nil
		}
	}
	return ok
}

// stringList decodes an array of strings (null: nil; a null element: "").
func (s *jsonScan) stringList(dst *[]string) bool {
	out := []string{}
	isNull, ok := s.array(func() bool {
		if s.null() {
			out = append(out, "")
			return true
		}
		v, ok := s.stringValue()
		out = append(out, v)
		return ok
	})
	if ok {
		*dst = out
		if isNull {
			*dst = nil
		}
	}
	return ok
}

// array reads the array at s.i (or a null: isNull), each element by elem (which is at the element).
func (s *jsonScan) array(elem func() bool) (isNull, ok bool) {
	if s.null() {
		return true, true
	}
	if !s.eat('[') {
		return false, false
	}
	s.ws()
	if s.eat(']') {
		return false, true
	}
	for {
		s.ws()
		if !elem() {
			return false, false
		}
		s.ws()
		if s.eat(']') {
			return false, true
		}
		if !s.eat(',') {
			return false, false
		}
	}
}

// symbolObject decodes a create_symbol or create_unbacked_symbol event (null: nil).
func (s *jsonScan) symbolObject(dst **traceSymbol) bool {
	if s.null() {
		*dst = nil
		return true
	}
	sym := &traceSymbol{}
	var seen [3]bool
	ok := s.object(func(key string) bool {
		var i int
		switch key {
		case "symbol":
			i = 0
		case "val":
			i = 1
		case "source":
			i = 2
		default:
			return s.skipMember(key, "symbol", "val", "source")
		}
		if seen[i] {
			return false
		}
		seen[i] = true
		switch i {
		case 0:
			return s.stringInto(&sym.Symbol)
		case 1:
			from := s.i
			if !s.skipValue(1) {
				return false
			}
			sym.Val = json.RawMessage(s.s[from:s.i])
			return true
		}
		return s.stringInto(&sym.Source)
	})
	if ok {
		*dst = sym
	}
	return ok
}

// metricsObject decodes a compilation_metrics object (null: nil): the members traceMetrics reads, the others
// (most of its ~40 KB: the configs as JSON strings) skipped.
func (s *jsonScan) metricsObject(dst **traceMetrics) bool {
	if s.null() {
		*dst = nil
		return true
	}
	m := &traceMetrics{}
	var seen uint64
	ok := s.object(func(key string) bool {
		i, known := metricsIndex[key]
		if !known {
			return s.skipMember(key, metricsFields...)
		}
		if seen&(1<<i) != 0 {
			return false // twice: Unmarshal decodes both
		}
		seen |= 1 << i
		return metricsSetters[i].set(s, m)
	})
	if ok {
		*dst = m
	}
	return ok
}

// metricsSetters decode each member traceMetrics reads, by its JSON name (every name of metricsFields:
// TestReadEnvelopeKnowsEveryField).
var metricsSetters = []struct {
	name string
	set  func(s *jsonScan, m *traceMetrics) bool
}{
	{"compile_id", func(s *jsonScan, m *traceMetrics) bool { return s.stringInto(&m.CompileID) }},
	{"co_name", func(s *jsonScan, m *traceMetrics) bool { return s.stringInto(&m.CoName) }},
	{"co_filename", func(s *jsonScan, m *traceMetrics) bool { return s.stringInto(&m.CoFilename) }},
	{"co_firstlineno", func(s *jsonScan, m *traceMetrics) bool { return s.intInto(&m.CoFirstLineNo) }},
	{"fail_type", func(s *jsonScan, m *traceMetrics) bool { return s.stringPtr(&m.FailType) }},
	{"fail_reason", func(s *jsonScan, m *traceMetrics) bool { return s.stringPtr(&m.FailReason) }},
	{"restart_reasons", func(s *jsonScan, m *traceMetrics) bool { return s.stringList(&m.RestartReasons) }},
	{"recompile_reason", func(s *jsonScan, m *traceMetrics) bool { return s.stringPtr(&m.RecompileReason) }},
	{"cudagraph_skip_reason", func(s *jsonScan, m *traceMetrics) bool { return s.stringPtr(&m.CudagraphSkipReason) }},
	{"entire_frame_compile_time_s", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.FrameSeconds) }},
	{"graph_op_count", func(s *jsonScan, m *traceMetrics) bool { return s.intPtr(&m.GraphOps) }},
	{"start_time", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.StartTime) }},
	{"pytorch_version", func(s *jsonScan, m *traceMetrics) bool { return s.stringInto(&m.PytorchVersion) }},
	{"dynamo_cumulative_compile_time_us", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.DynamoUS) }},
	{"aot_autograd_cumulative_compile_time_us", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.BackendUS) }},
	{"backend_compile_time_s", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.BackendS) }},
	{"inductor_cumulative_compile_time_us", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.InductorUS) }},
	{"inductor_compile_time_s", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.InductorS) }},
	{"inductor_code_gen_cumulative_compile_time_us", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.CodeGenUS) }},
	{"code_gen_time_s", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.CodeGenS) }},
	{"triton_compile_time_us", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.TritonUS) }},
	{"compile_time_autotune_time_us", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.AutotuneUS) }},
	{"backward_cumulative_compile_time_us", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.BackwardUS) }},
	{"runtime_triton_autotune_time_us", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.RtAutotuneUS) }},
	{"runtime_cudagraphify_time_us", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.RtCudagraphUS) }},
	{"remote_fx_graph_cache_get_time_us", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.RemoteFXGetUS) }},
	{"pgo_get_remote_code_state_time_us", func(s *jsonScan, m *traceMetrics) bool { return s.floatPtr(&m.PGOGetUS) }},
}

// metricsIndex is the place of each name in metricsSetters.
var metricsIndex = func() map[string]int {
	m := map[string]int{}
	for i, f := range metricsSetters {
		m[f.name] = i
	}
	return m
}()

// intInto decodes an integer into *dst (a null leaves it as it is).
func (s *jsonScan) intInto(dst *int) bool {
	if s.null() {
		return true
	}
	v, ok := s.intValue()
	if ok {
		*dst = v
	}
	return ok
}
