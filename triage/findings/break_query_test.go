package findings

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// queryBreak is a break at a user site whose every string field, and its sample's, holds a text of its own.
func queryBreak() *report.BreakSummary {
	g := &logparse.GraphBreak{Variant: logparse.BreakFull, File: "/root/repro/m.py", Line: 12,
		Reason: "Failed to trace builtin operator", GBType: "Failed to trace builtin operator", GBID: "GB0059",
		Explanation: "Dynamo does not know how to trace builtin operator `print`", Hints: []string{"Avoid print.", "Report it."},
		DebugContext: "builtin print [<class 'ConstantVariable'>]", Builtin: "print",
		Frames:    []logparse.Frame{{File: "/root/repro/m.py", Line: 12, Func: "helper", Code: `print("x")`}},
		UserFrame: logparse.Frame{File: "/root/repro/m.py", Line: 12, Func: "helper", Code: `print("x")`}}
	return &report.BreakSummary{File: g.File, Line: g.Line, Function: "helper", Reason: g.Reason, GBType: g.GBType, GBID: g.GBID,
		UserFile: g.File, UserLine: g.Line, UserFunc: "helper",
		Sample: &logparse.Record{Kind: logparse.KindGraphBreak, Break: g}}
}

// The break matcher answers a break whose cause sameCause calls the last one's with the last answer: right only if
// such a break's query (breakQuery) is the last one's. Each string field of a break and of its sample's payload
// (a field added later too) is changed in turn: where the query changes, sameCause must say the cause did.
func TestSameCauseCoversBreakQuery(t *testing.T) {
	changes := 0
	try := func(field string, change func(b *report.BreakSummary)) {
		a, b := queryBreak(), queryBreak()
		change(b)
		if BreakQuery(a) != BreakQuery(b) {
			changes++
			if sameCause(a, b) {
				t.Errorf("%s changes the break's query, but sameCause calls the causes the same", field)
			}
		}
	}
	for _, sv := range []struct {
		name string
		of   func(b *report.BreakSummary) reflect.Value
	}{
		{"BreakSummary", func(b *report.BreakSummary) reflect.Value { return reflect.ValueOf(b).Elem() }},
		{"GraphBreak", func(b *report.BreakSummary) reflect.Value { return reflect.ValueOf(b.Sample.Break).Elem() }},
	} {
		typ := sv.of(queryBreak()).Type()
		for i := range typ.NumField() {
			f := typ.Field(i)
			if !f.IsExported() {
				continue
			}
			name := sv.name + "." + f.Name
			switch {
			case f.Type.Kind() == reflect.String:
				try(name, func(b *report.BreakSummary) { sv.of(b).Field(i).SetString("changed") })
			case f.Type == reflect.TypeFor[[]string]():
				try(name, func(b *report.BreakSummary) { sv.of(b).Field(i).Set(reflect.ValueOf([]string{"changed"})) })
			}
		}
	}
	if changes < 6 { // reason, gb_type, gb_id (the summary's), explanation, hints, debug context (the sample's)
		t.Fatalf("only %d field changes changed the query: the test no longer reaches breakQuery's parts", changes)
	}
}

// The matcher gives each break the playbook matchPlaybook gives its own query, whatever came before it: a run of
// breaks of one cause, another cause between, and a library site (whose query names its frame).
func TestBreakMatcherMatchesEachBreakAsAlone(t *testing.T) {
	set, err := playbooks.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	lib := queryBreak()
	lib.File, lib.Sample.Break.Frames[0].File = "/usr/lib/python3/site-packages/torch/nn/parallel/distributed.py",
		"/usr/lib/python3/site-packages/torch/nn/parallel/distributed.py"
	lib.Sample.Break.Frames[0].Func, lib.Sample.Break.Frames[0].Code = "forward", "self._sync()"
	other := queryBreak()
	other.Reason, other.GBType, other.GBID = "Data-dependent branching", "Data-dependent branching", "GB0170"
	other.Sample.Break.Explanation, other.Sample.Break.Hints = "Detected data-dependent branching", nil
	breaks := []*report.BreakSummary{queryBreak(), queryBreak(), other, queryBreak(), lib, lib, queryBreak()}
	m := &BreakMatcher{Set: set}
	for i, b := range breaks {
		got, want := m.match(b), MatchPlaybook(set, BreakQuery(b))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("break %d: the matcher gave %s (%s), its own query %s (%s)", i, idOf(got), got.Level, idOf(want), want.Level)
		}
	}
}

func idOf(r playbooks.Result) string {
	if r.Primary == nil {
		return "none"
	}
	return fmt.Sprintf("%s, related %v", r.Primary.ID, r.RelatedIDs)
}
