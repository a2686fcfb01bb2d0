package trace

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// traceFiles are the TORCH_TRACE files under testdata (those SniffTrace tells).
func traceFiles(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	_ = filepath.WalkDir("../../testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil && logparse.SniffTrace(data[:min(len(data), 8192)]) {
			out[p] = data
		}
		return nil
	})
	if len(out) < 20 {
		t.Fatalf("%d trace files under testdata: the test would prove little", len(out))
	}
	return out
}

func parseTraceBytes(t *testing.T, data []byte, opt logparse.Options) []*logparse.Record {
	var recs []*logparse.Record
	if err := Parse(bytes.NewReader(data), opt, func(r *logparse.Record) { recs = append(recs, r) }); err != nil {
		t.Fatal(err)
	}
	return recs
}

func sameRecords(t *testing.T, what string, got, want []*logparse.Record) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d records, the whole-file parse %d", what, len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("%s: record %d differs:\n got %+v\nwant %+v", what, i, *got[i], *want[i])
		}
	}
}

// completeLines is data up to its last newline.
func completeLines(data []byte) []byte { return data[:bytes.LastIndexByte(data, '\n')+1] }

// The incremental reader gives the whole-file parse's records, fed any way: on every trace file under testdata,
// in chunks of random sizes, its Records at points along the way are Parse's of the complete lines so far
// (a file cut mid-line included), and what Take handed out, then Close, is Parse's of the whole file.
func TestTraceReaderGivesTheWholeFileRecords(t *testing.T) {
	files := traceFiles(t)
	rng := rand.New(rand.NewPCG(1, 2))
	handed := 0
	for path, data := range files {
		opt := logparse.Options{Input: path, Rank: 7} // the file name's rank: the envelopes' wins where they state one
		for _, cut := range []int{len(data), len(data) / 2, len(data) / 3} {
			if cut < len(data) {
				for cut > 0 && data[cut-1] == '\n' {
					cut-- // cut mid-line
				}
			}
			part := data[:cut]
			r, kept := NewReader(opt), NewReader(opt) // kept: one nothing is taken from
			var taken []*logparse.Record
			checks := 0
			for off := 0; off < len(part); {
				n := min(len(part)-off, 1+rng.IntN(16<<10))
				_, _ = r.Write(part[off : off+n])
				_, _ = kept.Write(part[off : off+n])
				off += n
				taken = append(taken, cloneRecords(r.Take())...) // as they were when handed out
				if checks < 4 && rng.IntN(8) == 0 || off == len(part) {
					checks++
					sameRecords(t, path+" read so far", kept.Records(), parseTraceBytes(t, completeLines(part[:off]), opt))
					sameRecords(t, path+" read so far, less what was taken", r.Records(),
						parseTraceBytes(t, completeLines(part[:off]), opt)[len(taken):])
				}
			}
			handed += len(taken)
			r.Close()
			kept.Close()
			whole := parseTraceBytes(t, part, opt)
			sameRecords(t, path+" closed", kept.Records(), whole)
			sameRecords(t, path+" taken", append(taken, r.Take()...), whole)
		}
	}
	if handed == 0 {
		t.Fatal("no record was handed out before Close: the reader is no incremental one")
	}
}

// Lines over readLines' buffer are cut as Parse cuts them; NULs before a line are skipped.
func TestTraceReaderCutsLongLinesAsParseTraceDoes(t *testing.T) {
	head := []byte("V1127 00:46:14.296000 123 torch/_logging/structured.py:28] {\"str\": [\"/x/y.py\", 0]}\n")
	metrics := []byte("V1127 00:46:14.296000 123 torch/_dynamo/utils.py:1] {\"compilation_metrics\": {\"compile_id\": \"0/0\", \"co_name\": \"f\", \"pad\": \"")
	line := func(pad int) []byte {
		return append(append(append([]byte(nil), metrics...), bytes.Repeat([]byte("x"), pad)...), "\"}}\n"...)
	}
	long := append(line(traceBuf), "\x00\x00"...)
	data := append(append(append([]byte(nil), head...), long...), line(10)...)
	opt := logparse.Options{Input: "synthetic", Rank: -1}
	fits := append(append(append([]byte(nil), head...), line(traceBuf-1000)...), head...) // a line readLines reads whole
	for _, d := range [][]byte{data, fits} {
		r := NewReader(opt)
		for off := 0; off < len(d); off += 1000 {
			_, _ = r.Write(d[off:min(len(d), off+1000)])
		}
		r.Close()
		sameRecords(t, "long line", r.Records(), parseTraceBytes(t, d, opt))
	}
	if len(parseTraceBytes(t, fits, opt)) == 0 {
		t.Fatal("the line that fits made no record: the test would prove little")
	}
}

// A compile failure is held until a later compile of the process marks it caught (as the whole-file parse does);
// the compile before it is handed out at once. A payload line longer than readLines' buffer is cut as Parse
// cuts it. synthetic_: written from the envelope format of the recorded traces (artifact, compilation_metrics).
func TestTraceReaderHoldsAFailureUntilALaterCompile(t *testing.T) {
	const glog = "V1127 00:46:14.296000 123 torch/_dynamo/utils.py:1] "
	failedLine := glog + `{"compilation_metrics": {"compile_id": "0/0", "co_name": "f", "co_filename": "/r/x.py", "co_firstlineno": 3, "fail_type": "BackendCompilerFailed", "fail_reason": "boom"}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0, "rank": 0}` + "\n"
	breakLines := glog + `{"artifact": {"name": "dynamo_graph_break_reason", "encoding": "string"}, "frame_id": 1, "frame_compile_id": 0, "attempt": 0, "rank": 0, "has_payload": "8e"}` +
		"\n\tGraph break in user code at /r/x.py:9\n\tReason: " + string(bytes.Repeat([]byte("y"), traceBuf)) + "\n"
	laterLine := glog + `{"compilation_metrics": {"compile_id": "1/0", "co_name": "g", "co_filename": "/r/x.py", "co_firstlineno": 8}, "frame_id": 1, "frame_compile_id": 0, "attempt": 0, "rank": 0}` + "\n"
	opt := logparse.Options{Input: "synthetic_caught", Rank: 0}
	r := NewReader(opt)
	strLine := glog + `{"str": ["/r/x.py", 0]}` + "\n" // an envelope's records come when the next line starts
	_, _ = r.Write([]byte(failedLine + strLine))
	first := cloneRecords(r.Take())
	if len(first) != 1 || first[0].Kind != logparse.KindCompile {
		t.Fatalf("before a later compile: %d records handed out, want the failed compile's only", len(first))
	}
	_, _ = r.Write([]byte(breakLines + laterLine + strLine))
	then := cloneRecords(r.Take())
	if len(then) == 0 || then[0].Error == nil || !then[0].Error.Caught {
		t.Fatalf("after a later compile: the failure handed out as %+v, want caught", then)
	}
	r.Close()
	whole := parseTraceBytes(t, []byte(failedLine+strLine+breakLines+laterLine+strLine), opt)
	sameRecords(t, "handed out", append(append(first, then...), r.Take()...), whole)
}
