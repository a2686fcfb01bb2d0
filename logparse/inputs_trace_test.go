package logparse

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// A TORCH_TRACE input, picked by its name or by its first line, is read by the trace reader the caller hands in
// (Sink.Trace: logparse/trace's Parse, which imports this package), with the input's options; a text input never
// reaches it; with none given, a trace input is an error, not a text parse of its JSON.
func TestParseInputReadsATraceThroughSinkTrace(t *testing.T) {
	traces, _ := filepath.Glob("../testdata/fixtures/torch-2.14/gb_recompile.trace/dedicated_log_torch_trace_*.log")
	if len(traces) != 1 {
		t.Fatalf("%d trace files in the fixture, want 1", len(traces))
	}
	text := "../testdata/fixtures/torch-2.14/gb_recompile.custom_format.log"
	for _, c := range []struct {
		name  string
		in    Input
		trace bool
	}{
		{"a trace by its name", inputFor(traces[0]), true},
		{"a trace by its first line", Input{Name: "renamed.log", Path: traces[0], Rank: 3}, true},
		{"a text log", inputFor(text), false},
	} {
		var calls []Options
		var firstLine string
		sink := Sink{Emit: func(*Record) {}, Trace: func(r io.Reader, opt Options, emit func(*Record)) error {
			calls = append(calls, opt)
			b, err := io.ReadAll(r)
			firstLine, _, _ = strings.Cut(string(b), "\n")
			emit(&Record{Kind: KindOther, Input: opt.Input})
			return err
		}}
		var got []*Record
		sink.Emit = func(r *Record) { got = append(got, r) }
		if err := ParseInput(c.in, false, nil, sink); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !c.trace {
			if len(calls) != 0 {
				t.Errorf("%s: the trace reader was called", c.name)
			}
			continue
		}
		if len(calls) != 1 || calls[0].Input != c.in.Name || calls[0].Rank != c.in.Rank || !calls[0].SkipOther {
			t.Fatalf("%s: trace reader calls %+v, want one with input %q rank %d", c.name, calls, c.in.Name, c.in.Rank)
		}
		if !SniffTrace([]byte(firstLine)) {
			t.Errorf("%s: the trace reader was not given the file from its start: %.80q", c.name, firstLine)
		}
		if len(got) != 1 || got[0].Input != c.in.Name {
			t.Errorf("%s: records %v, want the trace reader's one", c.name, got)
		}
		sink.Trace = nil
		if err := ParseInput(c.in, false, nil, sink); err == nil || !strings.Contains(err.Error(), "no trace reader") {
			t.Errorf("%s: no trace reader given: error %v", c.name, err)
		}
	}
}
