package trace

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// A file is read in large chunks, its lines where they lie; a stream through readLines: both give the same records,
// on every trace file of testdata and on one with the shapes a line reader must get right (a line longer than
// readLines' buffer, one cut at MaxLine, NULs before a line, CRLF ends, no newline at the end).
func TestParseOfAFileIsParseOfItsBytes(t *testing.T) {
	files := traceFiles(t)
	var odd []byte
	for path, data := range files {
		if strings.Contains(path, "r01_branch_print") {
			lines := bytes.SplitAfter(data, []byte("\n"))
			odd = slices.Concat(lines[0], []byte("\x00\x00"), lines[1], bytes.ReplaceAll(lines[2], []byte("\n"), []byte("\r\n")),
				[]byte("V1121 08:05:09.660000 31749 x.py:1] {\"str\": [\""+strings.Repeat("x", 300<<10)+"\", 9]}\n"))
			odd = append(odd, bytes.Join(lines[3:], nil)...)
			odd = bytes.TrimSuffix(odd, []byte("\n"))
		}
	}
	if odd == nil {
		t.Fatal("no r01_branch_print trace under testdata")
	}
	dir := t.TempDir()
	files[filepath.Join(dir, "odd.log")] = odd
	if err := os.WriteFile(filepath.Join(dir, "odd.log"), odd, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, data := range files {
		for _, maxLine := range []int{0, 100 << 10, 1 << 20} {
			opt := logparse.Options{Input: path, Rank: 3, MaxLine: maxLine}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			var got []*logparse.Record
			err = Parse(f, opt, func(r *logparse.Record) { got = append(got, r) })
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			sameRecords(t, path+" read as a file", got, parseTraceBytes(t, data, opt))
		}
	}
}

// readEnvelope gives up or decodes what json.Unmarshal decodes: on every envelope of testdata's traces, and on
// the shapes torch does not write (a key in capitals or twice, a number where an int is read, an escape, a null,
// a member it leaves to encoding/json). It reads nearly every envelope torch writes of the kinds it decodes.
func TestReadEnvelopeIsUnmarshal(t *testing.T) {
	check := func(body []byte) bool {
		t.Helper()
		var got, want envelope
		werr := json.Unmarshal(body, &want)
		ok := readEnvelope(string(body), &got)
		if ok && werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("readEnvelope(%.300s):\n%+v\nUnmarshal: %+v", body, got, want)
		}
		if !ok && !reflect.DeepEqual(got, envelope{}) {
			t.Fatalf("readEnvelope(%.300s) gave up and left %+v", body, got)
		}
		var viaDecode envelope
		if err := decodeEnvelope(body, &viaDecode); werr == nil && (err != nil || !reflect.DeepEqual(viaDecode, want)) {
			t.Fatalf("decodeEnvelope(%.300s): %+v, %v", body, viaDecode, err)
		}
		return ok
	}
	read, of := 0, 0
	for _, b := range envelopeLines(t) {
		ok := check(b)
		if k, _, _ := firstKey(b); k == "str" || k == "artifact" || k == "create_symbol" || strings.Contains(k, "compilation_metrics") {
			of++
			if ok {
				read++
			}
		}
	}
	if of < 500 || read < of*95/100 {
		t.Fatalf("readEnvelope read %d of %d envelopes of the kinds it decodes: the test would prove little", read, of)
	}
	big := `"inductor_config": "{\"a\": \"` + strings.Repeat(`x\\\"y`, 200) + `\"}"`
	for _, s := range []string{
		`{}`, ` {} `, `{"str": ["a", 1]}`, `{"str": []}`, `{"str": null}`, `{"str": [ "a\"b" , 1.5e3, {"x": [1]} ]}`,
		`{"STR": ["a", 1]}`, `{"str": ["a", 1], "str": ["b", 2]}`, `{"ſtr": ["a", 1]}`,
		`{"artifact": {"name": "fx_graph_cache_hit", "encoding": "json"}, "frame_id": 0, "frame_compile_id": 1, "attempt": 0, "has_payload": "ab"}`,
		`{"artifact": {"Name": "x"}}`, `{"artifact": {"name": "a\u00e9\n"}}`, `{"artifact": {"name": 5}}`, `{"artifact": null}`,
		`{"artifact": {"name": "a", "name": "b"}}`, `{"artifact": "x"}`, `{"frame_id": 1.5}`, `{"frame_id": -0}`, `{"frame_id": 01}`,
		`{"frame_id": 99999999999999999999}`, `{"frame_id": null, "rank": 3}`, `{"rank": "3"}`, `{"has_payload": null}`,
		`{"compilation_metrics": {"co_name": "f", ` + big + `, "entire_frame_compile_time_s": 1.5, "graph_op_count": 3}, "frame_id": 3, "rank": 2}`,
		`{"compilation_metrics": {"co_firstlineno": 1.5}}`, `{"compilation_metrics": {"co_firstlineno": null, "fail_type": null}}`,
		`{"compilation_metrics": {"restart_reasons": []}}`, `{"compilation_metrics": {"restart_reasons": ["a", null, "b\\c"]}}`,
		`{"compilation_metrics": {"restart_reasons": [1]}}`, `{"compilation_metrics": {"start_time": 1e400}}`,
		`{"compilation_metrics": {"start_time": -1.25E-3, "fail_reason": "x"}}`, `{"compilation_metrics": {"CO_NAME": "f"}}`,
		`{"compilation_metrics": {"co_name": "f", "co_name": "g"}}`, `{"compilation_metrics": null}`, `{"compilation_metrics": []}`,
		`{"create_symbol": {"symbol": "s0", "val": "9", "source": "L['x']", "stack": [{"a": 1}]}, "frame_id": 0, "frame_compile_id": 1}`,
		`{"create_unbacked_symbol": {"symbol": "u0", "val": null, "vr": "[-oo, oo]"}}`, `{"create_symbol": {"Symbol": "s0"}}`,
		`{"create_symbol": {"val": 1, "val": 2}}`, `{"dynamo_start": {"stack": []}}`, `{"optimize_ddp_split_child": {"name": "a"}}`,
		`{"str": ["a", 1]} x`, `{"str": ["a", 1],}`, `{"str": ["a", 1]`, `[1]`, ``,
	} {
		check([]byte(s))
	}
}

// FuzzReadEnvelope: where readEnvelope decodes an envelope that json.Unmarshal decodes, it decodes the same.
// go test ./logparse/trace -run '^$' -fuzz FuzzReadEnvelope
func FuzzReadEnvelope(f *testing.F) {
	f.Add(`{"artifact": {"name": "fx_graph_cache_hit"}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0, "has_payload": "x"}`)
	f.Add(`{"compilation_metrics": {"co_name": "f", "inductor_config": "{\"x\": 1}", "graph_op_count": 3, "start_time": 1.5}, "frame_id": 0}`)
	f.Add(`{"str": ["a", 1], "rank": 2}`)
	f.Add(`{"create_symbol": {"symbol": "s0", "val": "9", "source": "L['x']"}}`)
	f.Fuzz(func(t *testing.T, body string) {
		var got, want envelope
		werr := json.Unmarshal([]byte(body), &want)
		if readEnvelope(body, &got) && werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("readEnvelope %+v; Unmarshal %+v", got, want)
		}
	})
}

// readEnvelope decodes every field traceMetrics and envelope read: one added to either without a decoder here
// would be left out of every envelope it reads.
func TestReadEnvelopeKnowsEveryField(t *testing.T) {
	var names []string
	for _, f := range metricsSetters {
		names = append(names, f.name)
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(metricsFields))
	if !slices.Equal(names, want) {
		t.Fatalf("metricsSetters decode %v\ntraceMetrics reads %v", names, want)
	}
	var members []string
	for k := range envelopeMembers {
		members = append(members, k)
	}
	slices.Sort(members)
	if want := slices.Sorted(slices.Values(envelopeNames)); !slices.Equal(members, want) {
		t.Fatalf("envelopeMembers %v\nenvelope's fields %v", members, want)
	}
}

// interesting reads an envelope's kind at its place: every envelope of testdata it passes over that a search of
// the whole line (mentions) would have decoded is one no event reads, and it passes none that search would not.
func TestEnvelopeKindFilterLosesNothing(t *testing.T) {
	dropped := 0
	for _, b := range envelopeLines(t) {
		in, m := interesting(b), mentions(b)
		if in && !m {
			t.Fatalf("interesting but not found by a search: %.300s", b)
		}
		if in || !m {
			continue
		}
		dropped++
		var env envelope
		if json.Unmarshal(b, &env) != nil {
			continue
		}
		st := newTraceState(logparse.Options{Rank: -1})
		st.event(&env, &payload{}, 1)
		st.rank = -1
		if fresh := newTraceState(logparse.Options{Rank: -1}); len(st.recs) > 0 || st.symbols || len(st.strs) > 0 || len(st.frameFn) > 0 ||
			len(st.pending) > 0 || st.version != "" || !reflect.DeepEqual(st.metricsOf, fresh.metricsOf) {
			t.Fatalf("passed over, but an event reads it: %.300s", b)
		}
	}
	t.Logf("%d envelopes passed over that a search would have decoded", dropped)
}

// cacheFields reads a payload line's own bytes as it reads their ValidString where it says ascii; a field holding
// other bytes (invalid UTF-8 among them) it says is not.
func TestCacheFieldsOfRawBytes(t *testing.T) {
	for _, text := range append(cachePayloads(t)[:5], `{"key": "a\xffb", "cache_state": "hit"}`, `{"key": "a\xff\xfeb"}`,
		`{"components": ["\xff"], "key": "k", "cache_state": "miss"}`, `{"cache_bypass_reason": "é"}`) {
		p, valid, typeErr, ascii := cacheFields(text)
		wp, wvalid, wtypeErr, _ := cacheFields(logparse.ValidString([]byte(text)))
		if ascii && (p != wp || valid != wvalid || typeErr != wtypeErr) {
			t.Fatalf("cacheFields(%.200q) = %+v; of its ValidString %+v", text, p, wp)
		}
		if !ascii && !strings.ContainsFunc(wp.Key+wp.State+wp.Reason+wp.Detailed, func(r rune) bool { return r > 0x7f }) {
			t.Fatalf("cacheFields(%.200q) says a field is not ASCII: %+v", text, wp)
		}
	}
}

// lastKeys is bytes.LastIndex of each key, indexRank bytes.Index of `"rank": `; unmarshalString and
// unmarshalInt are json.Unmarshal into a string and an int; validNumber is json.Valid of what skipValue takes for a number.
func TestKeySearchesAndValidNumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b []byte
		for range rng.IntN(12) {
			b = append(b, []string{`"a": `, `"_a": `, `a: `, `"b": `, `"`, `:`, ` `, `x`, `a`, `"rank": `, `rank": `, `k`}[rng.IntN(12)]...)
		}
		for _, keys := range [][2]string{{`"a": `, `"_a": `}, {`"a": `, `"a": `}, {`a: `, `"b": `}} {
			i1, i2 := lastKeys(b, keys[0], keys[1])
			if w1, w2 := bytes.LastIndex(b, []byte(keys[0])), bytes.LastIndex(b, []byte(keys[1])); i1 != w1 || i2 != w2 {
				t.Fatalf("lastKeys(%q, %q) = %d, %d, want %d, %d", b, keys, i1, i2, w1, w2)
			}
		}
		if got, want := indexRank(b), bytes.Index(b, []byte(`"rank": `)); got != want {
			t.Fatalf("indexRank(%q) = %d, want %d", b, got, want)
		}
		var tok []byte
		for range rng.IntN(6) {
			tok = append(tok, []string{`"`, `\\`, `a`, "\x01", "é", "\xff", `u00e9`, ` `, `1`, `-`, `.`, `null`}[rng.IntN(12)]...)
		}
		if rng.IntN(2) == 0 {
			tok = slices.Concat([]byte(`"`), tok, []byte(`"`))
		}
		var s1, s2 string
		var n1, n2 int
		e1, e2 := unmarshalString(tok, &s1), json.Unmarshal(tok, &s2)
		f1, f2 := unmarshalInt(tok, &n1), json.Unmarshal(tok, &n2)
		if (e1 != nil) != (e2 != nil) || s1 != s2 || (f1 != nil) != (f2 != nil) || n1 != n2 {
			t.Fatalf("%q: unmarshalString %q, %v; unmarshalInt %d, %v; Unmarshal %q, %v; %d, %v", tok, s1, e1, n1, f1, s2, e2, n2, f2)
		}
		n := make([]byte, rng.IntN(8))
		for i := range n {
			n[i] = "+-0123456789.eE"[rng.IntN(15)]
		}
		if got, want := validNumber(string(n)), json.Valid(n); got != want {
			t.Fatalf("validNumber(%q) = %v, json.Valid %v", n, got, want)
		}
	}
}

// FuzzReaderIsParse: the bytes of a file fed to a Reader in two writes (each whole line read where it lies) give
// the records readLines gives of them. go test ./logparse/trace -run '^$' -fuzz FuzzReaderIsParse
func FuzzReaderIsParse(f *testing.F) {
	for _, root := range []string{"../../testdata/fixtures/torch-2.14"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "dedicated_log_torch_trace") {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(b[:min(len(b), 32<<10)], uint16(len(b)/3))
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		opt := logparse.Options{Input: "fuzz", Rank: -1, MaxLine: 512}
		var want []*logparse.Record
		_ = Parse(bytes.NewReader(data), opt, func(r *logparse.Record) { want = append(want, r) })
		r := NewReader(opt)
		k := min(int(cut), len(data))
		_, _ = r.Write(data[:k])
		_, _ = r.Write(data[k:])
		r.Close()
		if got := r.Take(); !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
			t.Fatalf("Reader: %d records, Parse %d", len(got), len(want))
		}
	})
}
