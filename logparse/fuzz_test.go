package logparse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// seedFiles returns every fixture file (text logs and trace files) and every log recorded here
// (testdata/recorded: the dynamic and ddp_graphs logs, traces, launcher output), for fuzz seeds and robustness
// tests.
func seedFiles(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, root := range []string{"../testdata/fixtures", "../testdata/recorded"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) == ".log" {
				out = append(out, p)
			}
			return nil
		})
	}
	if len(out) == 0 {
		t.Fatal("no fixtures under ../testdata/fixtures")
	}
	return out
}

// FuzzParse feeds arbitrary bytes, split at an arbitrary point, to the text parser (the trace reader's: trace.FuzzParse).
// Seeded with every fixture: go test ./logparse -run '^$' -fuzz FuzzParse -fuzztime 10m
func FuzzParse(f *testing.F) {
	for _, p := range seedFiles(f) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 64<<10 {
			b = b[:64<<10]
		}
		f.Add(b, uint16(len(b)/3))
	}
	for _, s := range pasteSeeds {
		f.Add([]byte(s), uint16(len(s)/2))
	}
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		n := 0
		// a hard-wrapped input's pieces are joined (wrap.go) as ParseInput does: the seeds synthetic_wrapped_*
		wrap := wrapOf(data[:min(len(data), headSize)])
		p := NewParser(Options{Input: "fuzz", Rank: -1, KeepText: true, MaxLine: 512, MaxLines: 64, wrap: wrap}, func(r *Record) {
			n++
			if r.FirstLine > r.LastLine {
				t.Fatalf("record lines %d > %d", r.FirstLine, r.LastLine)
			}
			if r.Kind == KindGraphBreak && r.Break == nil || r.Kind == KindRecompile && r.Recompile == nil ||
				r.Kind == KindLimitHit && r.Limit == nil || r.Kind == KindCudagraphSkip && r.Skip == nil {
				t.Fatalf("record of kind %v without payload", r.Kind)
			}
			for _, l := range r.Lines {
				if len(l) > 512*3 {
					t.Fatalf("kept line of %d bytes over the limit", len(l))
				}
			}
		})
		s := int(split)
		if s > len(data) {
			s = len(data)
		}
		p.Write(data[:s])
		p.Write(data[s:])
		p.Flush()
		if bytes.Count(data, []byte{'\n'}) > 0 && p.Lines() == 0 {
			t.Fatalf("lines not counted")
		}
	})
}

// FuzzLineEnd: lineEnd is lineEndGeneric on any bytes: go test ./logparse -run '^$' -fuzz FuzzLineEnd -fuzztime 10m
func FuzzLineEnd(f *testing.F) {
	f.Add([]byte("V1121 07:47:33.827000 1933 torch/_dynamo/x.py:1] msg\r\x1b[0m\nnext"))
	f.Add(bytes.Repeat([]byte("a\rb\x1bc"), 40))
	f.Fuzz(func(t *testing.T, b []byte) {
		nl, sp := lineEnd(b)
		wnl, wsp := lineEndGeneric(b)
		if nl != wnl || sp != wsp {
			t.Fatalf("lineEnd = %d, %v; want %d, %v", nl, sp, wnl, wsp)
		}
	})
}
