package triage

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// WriteReport encodes reportJSON, ReportJSON's twin with plain findings: the same bytes as ReportJSON with
// Finding.MarshalJSON, and the same fields.
func TestReportJSONForm(t *testing.T) {
	a, b := reflect.TypeOf(ReportJSON{}), reflect.TypeOf(reportJSON{})
	if a.NumField() != b.NumField() {
		t.Fatalf("ReportJSON has %d fields, reportJSON %d", a.NumField(), b.NumField())
	}
	for i := 0; i < a.NumField(); i++ {
		if fa, fb := a.Field(i), b.Field(i); fa.Name != fb.Name || fa.Tag != fb.Tag {
			t.Errorf("field %d: %s %q vs %s %q", i, fa.Name, fa.Tag, fb.Name, fb.Tag)
		}
	}
	for _, name := range []string{"torch-2.14/gb_recompile.triage.log", "torch-2.6/r05_dist_c10d.triage.log", "torch-2.14/r03_cache_limit.triage.log"} {
		rep, _, err := buildReport([]string{filepath.Join(fixtures, name)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		an := Analyze(rep, nil, nil)
		var want, got strings.Builder
		enc := json.NewEncoder(&want)
		enc.SetIndent("", " ")
		if err := enc.Encode(an.JSON()); err != nil {
			t.Fatal(err)
		}
		if err := WriteReport(&got, an, "json", TextOptions{}); err != nil {
			t.Fatal(err)
		}
		if len(an.Findings) == 0 || got.String() != want.String() {
			t.Errorf("%s: %d findings; WriteReport's JSON differs from ReportJSON's", name, len(an.Findings))
		}
	}
}
