package logparse

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Real runs (testdata/realtorch/README.md): r23 catches two exceptions of compiled functions and logs them with
// logging.exception, then goes on compiling; r24 logs with logging.error and raises again; r25 logs with
// logger.exception and raises again.
const (
	r23Caught  = "testdata/realtorch/r23_caught_logged.triage.log"
	r24Reraise = "testdata/realtorch/r24_logged_reraise.triage.log"
	r25Reraise = "testdata/realtorch/r25_exception_reraise.triage.log"
)

// exceptionsOf lists the exception records of a parse: kind, class and whether it was caught.
func exceptionsOf(rs []*Record) []string {
	var out []string
	for _, r := range rs {
		if r.Error != nil {
			s := r.Kind.String() + " " + r.Error.Class
			if r.Error.Caught {
				s += " (caught)"
			}
			out = append(out, s)
		}
	}
	return out
}

func TestCaughtAndLoggedExceptionsAreNotFatal(t *testing.T) {
	rs := parseAll(t, readFixture(t, r23Caught))
	want := []string{"exception torch._dynamo.exc.Unsupported (caught)", "exception RuntimeError (caught)"}
	if got := exceptionsOf(rs); !reflect.DeepEqual(got, want) {
		t.Errorf("exceptions %q, want %q", got, want)
	}
	// what the process went on doing is all there
	if n, m := len(ofKind(rs, KindGraphBreak)), len(ofKind(rs, KindRecompile)); n != 3 || m != 2 {
		t.Errorf("%d graph-break records, %d recompiles; want 3 and 2", n, m)
	}
	for _, r := range rs {
		if r.Error != nil && (r.Error.Message == "" || r.Error.Frame.Line == 0) {
			t.Errorf("caught %s lost its message or site: %+v", r.Error.Class, r.Error)
		}
	}
}

func TestLoggedThenRaisedIsFatal(t *testing.T) {
	for _, c := range []struct {
		path string
		want []string
	}{
		// logging.error without the traceback, the stdout that was buffered, then the death
		{r24Reraise, []string{"compile_error torch._dynamo.exc.Unsupported"}},
		// logger.exception, then the same exception uncaught: logged once (the process went on to raise it
		// again), then what it died of
		{r25Reraise, []string{"exception RuntimeError (caught)", "runtime_error RuntimeError"}},
	} {
		if got := exceptionsOf(parseAll(t, readFixture(t, c.path))); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: exceptions %q, want %q", c.path, got, c.want)
		}
	}
}

// A logged exception after which the process printed nothing of torch died of it (logger.exception, then exit):
// nothing but blank lines, print output (stdout, buffered until the exit), or torchrun's report of the child's
// exit after it.
func TestLoggedExceptionAtTheEndIsFatal(t *testing.T) {
	lines := strings.SplitAfter(readFixture(t, r23Caught), "\n")
	end := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "Set TORCHDYNAMO_VERBOSE=1") {
			end = i + 1
			break
		}
	}
	head := strings.Join(lines[:end], "") // "ERROR:root:…", the traceback of Unsupported
	want := []string{"compile_error torch._dynamo.exc.Unsupported"}
	for name, tail := range map[string]string{
		"synthetic_end":    "",
		"synthetic_blank":  "\n\n   \n",
		"synthetic_stdout": "\nstep ok 4\nstep ok 8\ndone\n",
		// torchrun's line after a child's death (real: fixtures/torch-2.11-cuda/g09a…, no rank prefix)
		"synthetic_launcher": "E1123 03:09:49.805000 6848 torch/distributed/elastic/multiprocessing/api.py:986] failed (exitcode: 1) local_rank: 1 (pid: 6954) of binary: /opt/torch/.venv/bin/python\n",
		// older torchelastic logged the same in logging's default format (as pasted in pytorch/pytorch#123808)
		"synthetic_launcher_default_format": "\nERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 2694) of binary: /usr/bin/python\n",
	} {
		if got := exceptionsOf(parseAll(t, head+tail)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: exceptions %q, want %q", name, got, want)
		}
	}
	// the program's own logging after it (stderr, unbuffered, Python's default format) is the process going on
	for name, tail := range map[string]string{
		"synthetic_logging_info":    "\nINFO:root:skipping the batch\n",
		"synthetic_logging_warning": "\nWARNING:trainer.loop:falling back to eager for this step\n",
	} {
		want := []string{"exception torch._dynamo.exc.Unsupported (caught)"}
		if got := exceptionsOf(parseAll(t, head+tail)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: exceptions %q, want %q", name, got, want)
		}
	}
	// the same traceback without the ERROR line over it is a death even with torch's records after it
	if got := exceptionsOf(parseAll(t, strings.Join(lines[1:], ""))); len(got) != 2 || got[0] != want[0] {
		t.Errorf("without the ERROR line: %q", got)
	}
}

// A parse in parts gives the records of a serial one, caught or not, wherever the parts are cut: between the
// ERROR line and its traceback, inside the traceback, at the torch record after it. Also pasted (pasted-logs.md
// §2) behind a markdown quote, code-block indentation or a pod name on every line.
func TestParallelCaughtEqualsSerial(t *testing.T) {
	old := MinParallelSize
	MinParallelSize = 0
	defer func() { MinParallelSize = old }()
	var text strings.Builder
	for _, p := range []string{r23Caught, r24Reraise, r25Reraise} {
		text.WriteString(readFixture(t, p))
	}
	for _, head := range []string{"", "> ", "    ", "trainer-0 "} {
		in := text.String()
		if head != "" {
			in = head + strings.ReplaceAll(strings.TrimSuffix(in, "\n"), "\n", "\n"+head) + "\n"
		}
		path := filepath.Join(t.TempDir(), "all.log")
		if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		collect := func(workers int, partSize int64) []string {
			return parseInParts(t, path, workers, partSize, func(r *Record) string {
				if r.Error != nil {
					return sig(r) + fmt.Sprint(" caught=", r.Error.Caught)
				}
				return sig(r)
			})
		}
		serial := collect(1, 1<<40)
		if n := strings.Count(strings.Join(serial, "\n"), "caught=true"); n != 3 {
			t.Fatalf("head %q: %d caught exceptions in the serial parse, want 3:\n%s", head, n, strings.Join(serial, "\n"))
		}
		for ps := int64(64); ps < int64(len(in)); ps += 53 {
			if got := collect(2, ps); !reflect.DeepEqual(got, serial) {
				t.Fatalf("head %q, part size %d:\n got %q\nwant %q", head, ps, got, serial)
			}
		}
	}
}

// A live stream that goes quiet after a logged traceback (torch compiling the next frame) has not decided it:
// FlushIdle leaves it open and OldestOpen does not wait for it; the next torch record makes it caught, the end
// of the stream fatal.
func TestIdleLeavesALoggedExceptionOpen(t *testing.T) {
	lines := strings.SplitAfter(readFixture(t, r23Caught), "\n")
	end := 0
	for end < len(lines) && !strings.HasPrefix(lines[end], "V1123") {
		end++
	}
	for _, c := range []struct {
		next string
		want []string
	}{
		{lines[end], []string{"exception torch._dynamo.exc.Unsupported (caught)"}},
		{"", []string{"compile_error torch._dynamo.exc.Unsupported"}},
	} {
		var got []*Record
		p := NewParser(Options{Rank: -1}, func(r *Record) { got = append(got, r) })
		p.Write([]byte(strings.Join(lines[:end], ""))) // "ERROR:root:…", the traceback, its blank line
		p.FlushIdle(p.Lines())
		if len(exceptionsOf(got)) != 0 || p.OldestOpen() != 0 {
			t.Fatalf("idle: completed %q, oldest open %d", exceptionsOf(got), p.OldestOpen())
		}
		p.Write([]byte(c.next))
		p.FlushIdle(p.Lines() - 1)
		p.Flush()
		if g := exceptionsOf(got); !reflect.DeepEqual(g, c.want) {
			t.Errorf("then %q: %q, want %q", c.next, g, c.want)
		}
	}
}
