package logparse

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// NUL bytes before a line are no part of it: a log file truncated under its writer (copytruncate, `: > log`) is
// a hole of NULs up to the writer's offset, then the next line it writes. Records parsed of a real fixture with
// NULs in front of its torch lines (one before each head, holes of 4 KiB before some lines, one at the start of the
// file) are those of the fixture, line numbers and text included: r01_branch_print's 2 distinct graph breaks stay 2
// (a NUL before each head made them 4: the head, not parsed behind the NUL, became a record of an unknown
// prefix, cut from its reason's lines).
func TestNULBeforeLinesIsNoPartOfThem(t *testing.T) {
	head := regexp.MustCompile(`(?m)^(\[rank\d+\]:)?[VIWEC]\d{4} `)
	for _, fixture := range []string{
		"../testdata/fixtures/torch-2.14/r01_branch_print.triage.log",
		"../testdata/fixtures/torch-2.6/ddp_2ranks.ddp.log",
		"../testdata/fixtures/torch-2.14/gb_recompile.triage.log",
	} {
		plain := readFixture(t, fixture)
		want := recordsJSON(t, plain)
		n := 0
		holes := head.ReplaceAllStringFunc(plain, func(h string) string {
			n++
			if n%3 == 1 {
				return strings.Repeat("\x00", 4096) + h
			}
			return h
		})
		for name, log := range map[string]string{
			"one NUL before each head": head.ReplaceAllString(plain, "\x00$0"),
			"4 KiB holes":              holes,
			"a hole at the start":      strings.Repeat("\x00", 10000) + plain,
		} {
			if got := recordsJSON(t, log); got != want {
				t.Errorf("%s, %s: the records differ from the fixture's\n got %.600s\nwant %.600s", fixture, name, got, want)
			}
		}
	}
	if sites := breakSites(parseAll(t, head.ReplaceAllString(readFixture(t, "../testdata/fixtures/torch-2.14/r01_branch_print.triage.log"), "\x00$0"))); len(sites) != 2 {
		t.Errorf("r01_branch_print with NULs: %d graph-break sites %v, want 2", len(sites), sites)
	}
}

// recordsJSON is every record of a log, as JSON (line numbers, text and all).
func recordsJSON(t *testing.T, log string) string {
	t.Helper()
	b, err := json.Marshal(parseAll(t, log))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func breakSites(rs []*Record) map[string]bool {
	sites := map[string]bool{}
	for _, r := range ofKind(rs, KindGraphBreak) {
		sites[r.Break.File+":"+strconv.Itoa(r.Break.Line)+" "+r.Break.Reason] = true
	}
	return sites
}

// A log that starts with a hole is no binary file: the NULs it starts with are not counted against it, what follows
// them is.
func TestAHoleIsNotBinary(t *testing.T) {
	text := []byte(readFixture(t, "../testdata/fixtures/torch-2.14/r01_branch_print.triage.log"))
	for name, c := range map[string]struct {
		head []byte
		want bool
	}{
		"a log after a hole":        {append(make([]byte, 6000), text...)[:headSize], false},
		"a head of nothing but NUL": {make([]byte, headSize), false},
		"a log":                     {text[:min(len(text), headSize)], false},
		"binary after a hole":       {append(make([]byte, 100), bytes.Repeat([]byte{0, 1, 2, 0xff}, 1024)...), true},
		"binary":                    {bytes.Repeat([]byte{0, 1, 2, 0xff}, 1024), true},
	} {
		if got := LooksBinary(c.head); got != c.want {
			t.Errorf("%s: LooksBinary %v, want %v", name, got, c.want)
		}
	}
}
