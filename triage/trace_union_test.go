package triage

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/report"
)

// gb_recompile's text log was taken with TORCH_LOGS off: of its .item() break (compile ids 3/0 and 3/1 in the
// trace) it shows only Dynamo's W-level Tensor.item() warning, at 3/0. Read with its trace, that warning is the
// trace's record of 3/0, not a reason to drop it: the break has both records.
func TestTraceWithItemWarningKeepsBothRecords(t *testing.T) {
	for _, v := range []string{"torch-2.14", "torch-2.6"} {
		base := filepath.Join(Fixtures, v, "gb_recompile")
		rep, _, err := BuildReport([]string{base + ".trace", base + ".withtrace.log"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Counts.GraphBreakRecords != 7 || rep.Counts.GraphBreaks != 3 {
			t.Errorf("%s: %d distinct, %d records, want 3 and 7 (the trace's)", v, rep.Counts.GraphBreaks,
				rep.Counts.GraphBreakRecords)
		}
		var item *report.BreakSummary
		for _, b := range rep.GraphBreaks {
			if b.Line == 18 {
				item = b
			}
		}
		if item == nil {
			t.Fatalf("%s: no break at line 18: %+v", v, rep.GraphBreaks)
		}
		if item.Records != 2 || !reflect.DeepEqual(item.CompileIDs, []string{"3/0", "3/1"}) || item.ItemOnly {
			t.Errorf("%s: .item() break x%d %v (item warning only: %v), want x2 [3/0 3/1] from the trace", v,
				item.Records, item.CompileIDs, item.ItemOnly)
		}
	}
}

// siteEvents is what a report shows per break site, or per recompiled frame: records and compile ids.
type siteEvents struct {
	records int
	cids    map[string]bool
}

func breakEvents(rep *report.Report) map[string]*siteEvents {
	out := map[string]*siteEvents{}
	for _, b := range rep.GraphBreaks {
		e := eventsAt(out, b.File+":"+strconv.Itoa(b.Line))
		e.records += b.Records
		for _, c := range b.CompileIDs {
			e.cids[c] = true
		}
	}
	return out
}

func recompileEvents(rep *report.Report) map[string]*siteEvents {
	out := map[string]*siteEvents{}
	for _, r := range rep.Recompiles {
		e := eventsAt(out, r.Function+"@"+r.File+":"+strconv.Itoa(r.Line))
		e.records += r.Records
		for _, f := range r.Failures {
			e.cids[f.CompileID] = true
		}
	}
	return out
}

func eventsAt(m map[string]*siteEvents, k string) *siteEvents {
	if m[k] == nil {
		m[k] = &siteEvents{cids: map[string]bool{}}
	}
	return m[k]
}

// unionEvents is what trace + text must show at each site: the larger source where its compile ids hold the
// other's, else one record per compile id of the two.
func unionEvents(a, b map[string]*siteEvents) map[string]*siteEvents {
	out := map[string]*siteEvents{}
	for _, m := range []map[string]*siteEvents{a, b} {
		for k, e := range m {
			u := eventsAt(out, k)
			for c := range e.cids {
				u.cids[c] = true
			}
		}
	}
	for k, u := range out {
		ea, eb := a[k], b[k]
		switch {
		case ea == nil:
			u.records = eb.records
		case eb == nil:
			u.records = ea.records
		case len(ea.cids) == len(u.cids) || len(eb.cids) == len(u.cids):
			u.records = max(ea.records, eb.records)
		default:
			u.records = len(u.cids)
		}
	}
	return out
}

func sameEvents(a, b map[string]*siteEvents) bool {
	if len(a) != len(b) {
		return false
	}
	for k, e := range a {
		f := b[k]
		if f == nil || e.records != f.records || !reflect.DeepEqual(e.cids, f.cids) {
			return false
		}
	}
	return true
}

func eventsText(m map[string]*siteEvents) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	s := ""
	for _, k := range keys {
		cids := make([]string, 0, len(m[k].cids))
		for c := range m[k].cids {
			cids = append(cids, c)
		}
		slices.Sort(cids)
		s += k + " x" + strconv.Itoa(m[k].records) + " [" + strings.Join(cids, ",") + "]; "
	}
	return s
}

// Every trace dir with the text log of its run, read together: each break site and recompiled frame shows the
// union of the two sources' events, each once, and the record counts add up to it.
func TestTracePairsCountTheUnion(t *testing.T) {
	var pairs []string
	for _, v := range []string{"torch-2.14", "torch-2.6", "torch-2.11-cuda"} {
		dirs, _ := filepath.Glob(filepath.Join(Fixtures, v, "*.trace"))
		for _, d := range dirs {
			base := d[:len(d)-len(".trace")]
			if _, err := os.Stat(base + ".withtrace.log"); err == nil {
				pairs = append(pairs, base)
			}
		}
	}
	if len(pairs) < 20 {
		t.Fatalf("found only %d trace + text pairs", len(pairs))
	}
	for _, base := range pairs {
		rel, _ := filepath.Rel(Fixtures, base)
		t.Run(rel, func(t *testing.T) {
			var reps [3]*report.Report
			for i, in := range [][]string{{base + ".trace"}, {base + ".withtrace.log"},
				{base + ".trace", base + ".withtrace.log"}} {
				rep, _, err := BuildReport(in, nil)
				if err != nil {
					t.Fatal(err)
				}
				reps[i] = rep
			}
			trace, text, both := reps[0], reps[1], reps[2]
			want := unionEvents(breakEvents(trace), breakEvents(text))
			if got := breakEvents(both); !sameEvents(got, want) {
				t.Errorf("breaks: got %s want %s", eventsText(got), eventsText(want))
			}
			n := 0
			for _, e := range want {
				n += e.records
			}
			if both.Counts.GraphBreakRecords != n {
				t.Errorf("graph_break_records %d, want %d (trace %d, text %d)", both.Counts.GraphBreakRecords, n,
					trace.Counts.GraphBreakRecords, text.Counts.GraphBreakRecords)
			}
			wantRc := unionEvents(recompileEvents(trace), recompileEvents(text))
			if got := recompileEvents(both); !sameEvents(got, wantRc) {
				t.Errorf("recompiles: got %s want %s", eventsText(got), eventsText(wantRc))
			}
			n = 0
			for _, e := range wantRc {
				n += e.records
			}
			if both.Counts.Recompiles != n {
				t.Errorf("recompiles %d, want %d (trace %d, text %d)", both.Counts.Recompiles, n,
					trace.Counts.Recompiles, text.Counts.Recompiles)
			}
		})
	}
}
