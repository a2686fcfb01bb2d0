package compare

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// diff's JSON is the result headed by its schema and the inputs of A and B, one-space indented; compare's is its
// result, which carries its schema.
func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteDiffJSON(&b, []string{"a.log"}, []string{"b.log"}, DiffResult{New: 1, NotCompared: []string{}}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "{\n \"schema\": \""+DiffSchema+"\",\n \"a\": [\n  \"a.log\"\n ],\n \"b\": [\n  \"b.log\"\n ],\n \"items\": null,\n \"new\": 1,") {
		t.Errorf("diff JSON:\n%s", b.String())
	}
	b.Reset()
	if err := WriteCompareJSON(&b, Result{Schema: Schema}); err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal(b.Bytes(), &res); err != nil || res["schema"] != Schema || !strings.HasPrefix(b.String(), "{\n \"schema\"") {
		t.Errorf("compare JSON %v:\n%s", err, b.String())
	}
}
