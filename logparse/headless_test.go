package logparse

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// lastLines returns, for every Dynamo or Inductor exception line at the start of a line in a real log, that line
// and its message up to the first blank line: what is left of a crash pasted without its traceback
// (pasted-logs.md §1).
func lastLines(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range []string{"../testdata/fixtures", "../testdata/realtorch", "testdata/realtorch"} {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != ".log" || strings.Contains(p, ".trace") {
				return nil
			}
			lines := strings.Split(readFixture(t, p), "\n")
			for i, l := range lines {
				if !strings.HasPrefix(l, "torch._dynamo.exc.") && !strings.HasPrefix(l, "torch._inductor.exc.") {
					continue
				}
				j := i + 1
				for j < len(lines) && strings.TrimSpace(lines[j]) != "" {
					j++
				}
				out[filepath.Base(p)+":"+l[:strings.IndexByte(l+":", ':')]] = strings.Join(lines[i:j], "\n") + "\n"
			}
			return nil
		})
	}
	if len(out) < 4 {
		t.Fatalf("only %d exception lines", len(out))
	}
	return out
}

// IPython names the class without its module on the last line (pasted-logs.md §1: "InductorError: …",
// "BackendCompilerFailed: …"); pasted without the header, that line is still the compile error the module-named
// one is, with its inner error and message, also behind a rank prefix or code-block indentation. A message
// without a class name ("Unsupported: …", a wrapper's str(e)) is no record, as the doc says.
func TestHeadlessClassWithoutModule(t *testing.T) {
	n := 0
	for name, text := range lastLines(t) {
		want := errorSigs(parseAll(t, text))
		if len(want) != 1 || !strings.HasPrefix(want[0], "compile_error") {
			t.Fatalf("%s: the module-named line gives %q", name, want)
		}
		bare := strings.TrimPrefix(strings.TrimPrefix(text, "torch._dynamo.exc."), "torch._inductor.exc.")
		if strings.HasPrefix(bare, "Unsupported") {
			if got := errorSigs(parseAll(t, bare)); len(got) != 0 {
				t.Errorf("%s: %q without its module gives %q", name, strings.SplitN(bare, "\n", 2)[0], got)
			}
			continue
		}
		n++
		for _, head := range []string{"", "[rank3]: ", "    "} {
			in := head + strings.ReplaceAll(strings.TrimSuffix(bare, "\n"), "\n", "\n"+head) + "\n"
			got := errorSigs(parseAll(t, in))
			w := want
			if head == "[rank3]: " {
				w = []string{strings.Replace(want[0], " r-1 ", " r3 ", 1)}
			}
			if !reflect.DeepEqual(got, w) {
				t.Errorf("%s behind %q:\n got %q\nwant %q", name, head, got, w)
			}
		}
	}
	if n < 3 {
		t.Errorf("only %d lines of classes other than Unsupported", n)
	}
}

// Prose and print output that name an exception are no exception line.
func TestHeadlessProseIsNoException(t *testing.T) {
	for _, s := range []string{
		"Error: nothing to compile\n",
		"ValueError was raised by the data loader, retrying\n",
		"caught a ValueError: retrying with a smaller batch\n",
		"The ValueError: message below is expected\n",
		"Unsupported: Attempted to call function marked as skipped\n", // the message only (pasted-logs.md §1)
		"BackendCompilerFailed means the backend raised, see below\n",
		"Failed: 3 steps\n",
		"Skipped: InductorError\n",
	} {
		if got := errorSigs(parseAll(t, s)); len(got) != 0 {
			t.Errorf("%q: %q", s, got)
		}
	}
	// the classes that end in Error: a line of their own stays an exception line, their name inside prose does not
	for s, want := range map[string]int{"ValueError\n": 1, "ValueError: bad shape\n": 1, "InductorError: boom\n": 1, "see ValueError\n": 0} {
		if got := errorSigs(parseAll(t, s)); len(got) != want {
			t.Errorf("%q: %q, want %d", s, got, want)
		}
	}
}
