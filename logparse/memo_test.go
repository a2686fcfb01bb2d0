package logparse

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// ranksCopy writes every real log of the seed files four times, once behind each of [rank0]: … [rank3]:, as
// torchrun's ranks print the same breaks: the memo's case.
func ranksCopy(t *testing.T) string {
	var b strings.Builder
	for _, f := range seedFiles(t) {
		if strings.Contains(f, ".trace") || strings.Contains(f, "tlparse") {
			continue
		}
		data, _ := os.ReadFile(f)
		for r := range 4 {
			for _, l := range strings.SplitAfter(string(data), "\n") {
				if l != "" {
					fmt.Fprintf(&b, "[rank%d]:%s", r, l)
				}
			}
		}
	}
	path := filepath.Join(t.TempDir(), "ranks.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// parseMemo parses path as report does (counting, in parts when workers > 1) with or without a break memo and
// returns every record and the memo.
func parseMemo(t *testing.T, path string, workers int, memo bool) ([]*Record, *breakMemo) {
	t.Helper()
	opt := Options{Rank: -1, SkipOther: true}
	if memo {
		opt.memo = newBreakMemo()
	}
	var out []*Record
	parseFileInParts(t, path, workers, 64<<10, opt, func(r *Record) { out = append(out, r) })
	return out, opt.memo
}

// A break whose text was seen before (another rank's, another compile's) gets the payload a parse of its own
// lines gives: every record of every real log, each printed by four ranks, is the same with the memo and
// without it, serial and in parts; and the memo did its work (fewer texts held than breaks counted).
func TestBreakMemoChangesNoRecord(t *testing.T) {
	path := ranksCopy(t)
	for _, workers := range []int{1, 4} {
		want, _ := parseMemo(t, path, workers, false)
		breaks := 0
		for _, r := range want {
			if r.Kind == KindGraphBreak {
				breaks++
			}
		}
		if breaks < 100 {
			t.Fatalf("only %d graph breaks in the seed logs", breaks)
		}
		got, memo := parseMemo(t, path, workers, true)
		if len(got) != len(want) {
			t.Fatalf("%d workers: %d records with the memo, %d without", workers, len(got), len(want))
		}
		byID := map[int32]*Record{}
		for i := range want {
			// SameBreak: records with one id have equal payloads, and ids differ from one load to the next
			if id := got[i].SameBreak(); id != 0 {
				if first := byID[id]; first != nil && (!reflect.DeepEqual(first.Break, got[i].Break) || first.Cut != got[i].Cut) {
					t.Fatalf("%d workers: records %d and %d share SameBreak %d but not their payload", workers, first.FirstLine, got[i].FirstLine, id)
				}
				byID[id] = got[i]
			}
			got[i].sameBreak = 0 // the one field the memo adds
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%d workers: record %d differs with the memo:\n got  %+v\n      %+v\n want %+v\n      %+v", workers, i,
					got[i], got[i].Break, want[i], want[i].Break)
			}
		}
		if len(byID) == 0 || len(byID) > len(memo.m) {
			t.Errorf("%d workers: %d SameBreak ids for the memo's %d texts", workers, len(byID), len(memo.m))
		}
		again, _ := parseMemo(t, path, workers, true)
		for _, r := range again {
			if byID[r.SameBreak()] != nil {
				t.Fatalf("%d workers: a second load numbered a text as the first did (SameBreak %d)", workers, r.SameBreak())
			}
		}
		if n := len(memo.m); n == 0 || n*4 > breaks+3 {
			t.Errorf("%d workers: the memo holds %d texts for %d breaks, each printed by 4 ranks", workers, n, breaks)
		}
	}
}

// The repeats of a remembered text share the memo's payload (consumers read it, never write it: triage's
// TestCountedPayloadsAreReadOnly), and the first record of a text keeps its own: writing the memo's changes no
// record that parsed the text itself.
func TestBreakMemoSharesThePayload(t *testing.T) {
	got, _ := parseMemo(t, ranksCopy(t), 1, true)
	byID := map[int32][]*Record{}
	for _, r := range got {
		if r.Kind == KindGraphBreak && r.SameBreak() != 0 {
			byID[r.SameBreak()] = append(byID[r.SameBreak()], r)
		}
	}
	shared := 0
	for _, rs := range byID {
		if len(rs) < 3 {
			continue
		}
		first, rest := rs[0], rs[1:]
		for _, r := range rest {
			if r.Break != rest[0].Break {
				t.Fatalf("two repeats of one text have two payloads")
			}
		}
		if first.Break == rest[0].Break {
			t.Fatalf("the first record of a text shares the memo's payload: writing it would change the repeats")
		}
		shared++
	}
	if shared == 0 {
		t.Fatal("no break text printed three times")
	}
}

// The same bytes cut into other lines are another record: the memo answers only for the same line ends.
func TestBreakMemoKeysOnTheLines(t *testing.T) {
	m := newBreakMemo()
	text := "Graph break in user code at /r.py:3Graph Break Reason: x"
	r := &Record{Kind: KindGraphBreak, Lines: []string{text[:35], text[35:]}, Break: &GraphBreak{File: "/r.py", Line: 3}}
	m.put(text, []int{35, len(text)}, r)
	if m.get([]byte(text), []int{len(text)}) != nil {
		t.Error("a one-line record got the payload of the two-line record of the same bytes")
	}
	e := m.get([]byte(text), []int{35, len(text)})
	if e == nil || e.brk.File != "/r.py" {
		t.Fatalf("the two-line record was not remembered: %+v", e)
	}
	for _, no := range []*Record{
		{Kind: KindOther, Lines: []string{"x"}},
		{Kind: KindGraphBreak, Truncated: true, Lines: []string{"y"}, Break: &GraphBreak{}},
	} {
		m.put(no.Lines[0], []int{1}, no)
		if m.get([]byte(no.Lines[0]), []int{1}) != nil {
			t.Errorf("remembered %+v (only whole graph breaks are)", no)
		}
	}
}

// Records of the other kinds classify makes from their lines alone (tracebacks, limit hits, partitions, …) are
// classified once per text too: every record of every real log, each printed by four ranks, is the same with the
// memo and without it, serial and in parts (TestBreakMemoChangesNoRecord compares them all); the memo held fewer
// texts than such records; and a traceback whose text was seen caught is fatal where nothing shows it caught, and
// the other way round (the same exception logged with logger.exception, then raised: r25, and that order turned
// round), the repeat's exception its own copy.
func TestRecordMemoChangesNoRecord(t *testing.T) {
	memoed := 0
	_, memo := parseMemo(t, ranksCopy(t), 1, true)
	want, _ := parseMemo(t, ranksCopy(t), 1, false)
	for _, r := range want {
		if r.Error != nil || r.Limit != nil || r.Parts != nil || r.Dump != nil || r.Warning != nil {
			memoed++
		}
	}
	if n := len(memo.recs); n == 0 || n*3 > memoed {
		t.Errorf("the record memo holds %d texts for %d records of its kinds, each printed by 4 ranks", n, memoed)
	}
	log := readFixture(t, r25Reraise)
	// the traceback r25 dies of (logged before with the same text), and a torch record of the same run
	tb := log[strings.LastIndex(log, "Traceback (most recent call last):"):]
	torch := log[:strings.IndexByte(log, '\n')+1]
	const logged = "ERROR:train:step failed\n"
	caughtFirst := logged + tb + tb + tb                                 // the next traceback shows the first caught; the others are fatal
	fatalFirst := tb + torch + logged + tb + torch + logged + tb + torch // no ERROR line over the first: fatal; the others are caught
	for name, in := range map[string]string{"caught first": caughtFirst, "fatal first": fatalFirst} {
		path := filepath.Join(t.TempDir(), "in.log")
		if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 4} {
			got, memo := parseMemo(t, path, workers, true)
			want, _ := parseMemo(t, path, workers, false)
			if g, w := exceptionsOf(got), exceptionsOf(want); !reflect.DeepEqual(g, w) || len(g) != 3 || g[0] == g[1] || len(memo.recs) != 1 {
				t.Fatalf("%s, %d workers: exceptions %q with the memo (%d texts), %q without", name, workers, g, len(memo.recs), w)
			}
			var errs []*CompileError
			for _, r := range got {
				if r.Error != nil {
					for _, e := range errs {
						if e == r.Error {
							t.Fatalf("%s: two records share one exception", name)
						}
					}
					errs = append(errs, r.Error)
				}
			}
		}
	}
}
