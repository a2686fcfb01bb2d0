package trace

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// envelopeLines are the envelope lines (after the glog prefix) of every TORCH_TRACE file under testdata.
func envelopeLines(t testing.TB) [][]byte {
	var out [][]byte
	_ = filepath.WalkDir("../../testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".log") {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		defer f.Close()
		_ = readLines(f, 64<<10, func(line []byte, cut bool) {
			if len(line) == 0 || line[0] == '\t' {
				return
			}
			head, ok := logparse.ParseGlogHead(line)
			if !ok || len(head.Body) == 0 || head.Body[0] != '{' {
				return
			}
			out = append(out, bytes.Clone(head.Body))
		})
		return nil
	})
	return out
}

// decodeEnvelope decodes what json.Unmarshal decodes: every envelope of testdata's traces (the metrics ones, ~40
// KB, slimmed), the same slimmed or not, with the same errors, and the shapes torch does not write: a metrics
// key in capitals or twice, a field of it in capitals, a metrics value that is no object, a type error in a field
// read, and text that is no JSON.
func TestDecodeEnvelopeIsUnmarshal(t *testing.T) {
	check := func(body []byte) {
		t.Helper()
		var got, want envelope
		werr := json.Unmarshal(body, &want)
		slim, ok := slimEnvelope(string(body))
		var gerr error = errNoJSON
		if ok {
			gerr = json.Unmarshal(slim, &got)
		}
		if (gerr != nil) != (werr != nil) || werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%.300s\nslimmed %.300s: %+v, %v\nUnmarshal: %+v, %v", body, slim, got, gerr, want, werr)
		}
		var viaDecode envelope
		if err := decodeEnvelope(body, &viaDecode); (err != nil) != (werr != nil) || werr == nil && !reflect.DeepEqual(viaDecode, want) {
			t.Fatalf("decodeEnvelope(%.300s): %+v, %v", body, viaDecode, err)
		}
	}
	lines := envelopeLines(t)
	metrics, slimmed := 0, 0
	for _, b := range lines {
		check(b)
		if bytes.Contains(b, []byte(`{"compilation_metrics": {`)) {
			metrics++
			if slim, _ := slimEnvelope(string(b)); len(slim) < len(b)/2 {
				slimmed++
			}
		}
	}
	if metrics < 50 || slimmed < metrics/2 {
		t.Fatalf("%d envelope lines, %d of compilation_metrics, %d of them slimmed to less than half: the test would prove little", len(lines), metrics, slimmed)
	}
	big := `"inductor_config": "{\"a\": \"` + strings.Repeat(`x\\\"y`, 2000) + `\"}"`
	for _, s := range []string{
		`{}`, ` {} `, `{"compilation_metrics": {}}`, `{"compilation_metrics": null}`, `{"compilation_metrics": "x"}`,
		`{"compilation_metrics": {"co_name": "f", ` + big + `, "entire_frame_compile_time_s": 1.5}, "frame_id": 3, "rank": 2}`,
		`{"COMPILATION_METRICS": {"CO_NAME": "f", ` + big + `}, "Frame_Id": 1}`,
		`{"compilation_metrics": {"co_name": "f"}, "compilation_metrics": {` + big + `, "co_firstlineno": 7}}`,
		`{"bwd_compilation_metrics": {"co_name": 5, ` + big + `}}`, `{"compilation_metrics_runtime": {"graph_op_count": "x", ` + big + `}}`,
		`{"compilation_metrics": {` + big + `, "restart_reasons": ["a", "b"], "fail_type": null}, "attempt": 1}`,
		`{"compilation_metrics": {` + big + `}`, `{"compilation_metrics": {` + big + `}} x`, `{"compilation_metrics": {` + big + `,}}`,
		`{"artifact": {"name": "fx_graph_cache_hit"}, ` + big + `}`, `[` + big + `]`, `{"frame_id": "x", ` + big + `}`,
	} {
		check([]byte(s))
	}
}

// FuzzSlimEnvelope: where json.Unmarshal decodes an envelope, the slimmed envelope decodes the same; where the
// slimming finds no JSON object, Unmarshal fails too. go test ./logparse -run '^$' -fuzz FuzzSlimEnvelope
func FuzzSlimEnvelope(f *testing.F) {
	f.Add(`{"compilation_metrics": {"co_name": "f", "inductor_config": "{\"x\": 1}", "graph_op_count": 3}, "frame_id": 0}`)
	f.Add(`{"bwd_compilation_metrics": {"CO_NAME": "g"}, "rank": 1, "artifact": {"name": "a"}}`)
	f.Fuzz(func(t *testing.T, body string) {
		var got, want envelope
		werr := json.Unmarshal([]byte(body), &want)
		slim, ok := slimEnvelope(body)
		if !ok {
			if werr == nil {
				t.Fatalf("no JSON object found where Unmarshal decodes %+v", want)
			}
			return
		}
		gerr := json.Unmarshal(slim, &got)
		if werr == nil && (gerr != nil || !reflect.DeepEqual(got, want)) {
			t.Fatalf("slimmed %s: %+v, %v; Unmarshal %+v", slim, got, gerr, want)
		}
	})
}
