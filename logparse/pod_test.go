package logparse

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// bareTracebackFixtures are the real logs that hold a traceback without a rank or log prefix.
func bareTracebackFixtures(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{"../testdata/fixtures", "../testdata/realtorch", "testdata/realtorch"} {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != ".log" || strings.Contains(p, ".trace") || strings.Contains(p, "tlparse") {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil && strings.Contains("\n"+string(b), "\nTraceback (most recent call last):") {
				out = append(out, p)
			}
			return nil
		})
	}
	if len(out) < 10 {
		t.Fatalf("only %d fixtures with a bare traceback", len(out))
	}
	return out
}

// errorSigs describes the exception records of a parse, everything a report takes from them.
func errorSigs(rs []*Record) []string {
	var out []string
	for _, r := range rs {
		if e := r.Error; e != nil {
			out = append(out, fmt.Sprintf("%v r%d %s %q %s %+v frames=%d caught=%v", r.Kind, r.Rank, e.Class, e.Message,
				e.Inner, e.Frame, len(e.Frames), e.Caught))
		}
	}
	return out
}

// A log shipper's pod or container name in front of every line (pasted-logs.md §2) is taken off a bare
// traceback's lines like off the log records': the traceback is the one of the untouched log, frames, message
// and chain included. Blank lines keep the name and its space, or only the name (trailing space trimmed).
func TestPodNameBeforeBareTraceback(t *testing.T) {
	for _, p := range bareTracebackFixtures(t) {
		text := readFixture(t, p)
		want := errorSigs(parseAll(t, text))
		if len(want) == 0 {
			t.Fatalf("%s: no exception record", p)
		}
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		for _, trim := range []bool{false, true} {
			name := "synthetic_paste_pod/" + filepath.Base(p)
			if trim {
				name = "synthetic_paste_pod_trimmed/" + filepath.Base(p)
			}
			t.Run(name, func(t *testing.T) {
				var b strings.Builder
				for _, l := range lines {
					l = "trainer-0 " + l
					if trim {
						l = strings.TrimRight(l, " ")
					}
					b.WriteString(l + "\n")
				}
				if got := errorSigs(parseAll(t, b.String())); !reflect.DeepEqual(got, want) {
					t.Errorf("exceptions\n got %q\nwant %q", got, want)
				}
			})
		}
	}
}

// Only a traceback header is taken as the start of a traceback behind a name: print output and prose that
// mention a traceback or an exception are no record.
func TestPodNameNeedsATracebackHeader(t *testing.T) {
	for _, s := range []string{
		"see the Traceback (most recent call last): below\n",
		"trainer-0 RuntimeError: boom\n", // a headless exception line behind a name: not decidable from the line
		"got a Traceback (most recent call last):\n",
		"trainer 0 Traceback (most recent call last):\n",
	} {
		if got := errorSigs(parseAll(t, s)); len(got) != 0 {
			t.Errorf("%q: %q", s, got)
		}
	}
}
