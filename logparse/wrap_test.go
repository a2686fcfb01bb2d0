package logparse

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// No log as printed looks hard-wrapped: WrapWidth of every fixture and recorded log (their starts, as the reader
// sees them) is 0, so no line of a real log is joined with the next.
func TestWrapWidthOfLogsAsPrinted(t *testing.T) {
	files := seedFiles(t)
	_ = filepath.WalkDir("../testdata/realtorch", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".log") {
			files = append(files, p)
		}
		return nil
	})
	for _, p := range files {
		if strings.Contains(p, "synthetic_wrapped") { // made by wrapping: TestWrapWidthOfWrappedFixtures
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if w := WrapWidth(b[:min(len(b), headSize)]); w != 0 {
			t.Errorf("%s: wrapped at %d", p, w)
		}
	}
}

// The fixtures made by wrapping a recording with `fold -w W` are seen wrapped at W.
func TestWrapWidthOfWrappedFixtures(t *testing.T) {
	for name, want := range map[string]int{"synthetic_wrapped.torch-2.14.log": 100, "synthetic_wrapped.torch-2.6.log": 80} {
		b, err := os.ReadFile(filepath.Join("../testdata/fixtures/synthetic", name))
		if err != nil {
			t.Fatal(err)
		}
		if w := WrapWidth(b[:min(len(b), headSize)]); w != want {
			t.Errorf("%s: wrapped at %d, want %d", name, w, want)
		}
	}
}

// A wrap piece is joined with the line after it unless that line starts one of its own, and a CRLF paste's pieces
// join without their '\r'; the joined line is parsed as one (its site whole).
func TestUnwrapJoinsPieces(t *testing.T) {
	const head = "V1121 08:02:59.662000 31101 torch/_dynamo/symbolic_convert.py:5368] [0/0] [__graph_breaks] "
	for _, eol := range []string{"\n", "\r\n"} {
		var in strings.Builder
		for _, f := range []string{"branch_print", "item", "cache_limit"} {
			for _, l := range []string{head + "Graph break in user code at /work/repro/" + f + ".py:4", head + "Graph Break Reason: Data-dependent branching"} {
				for len(l) > 100 { // fold -w 100
					in.WriteString(l[:100] + eol)
					l = l[100:]
				}
				in.WriteString(l + eol)
			}
		}
		var sites []string
		p := NewParser(Options{Rank: -1, wrap: WrapWidth([]byte(in.String()))}, func(r *Record) {
			if r.Kind == KindGraphBreak {
				sites = append(sites, r.Break.File)
			}
		})
		if p.opt.wrap != 100 {
			t.Fatalf("%q: wrap %d", eol, p.opt.wrap)
		}
		p.Write([]byte(in.String()))
		p.Flush()
		if len(sites) != 3 || sites[0] != "/work/repro/branch_print.py" || sites[2] != "/work/repro/cache_limit.py" {
			t.Errorf("%q: sites %q", eol, sites)
		}
	}
}

// A joined line is numbered as its first piece: a record's lines are where the paste has them, and the lines after
// a joined one keep their numbers.
func TestUnwrapKeepsLineNumbers(t *testing.T) {
	const head = "V1121 08:02:59.662000 31101 torch/_dynamo/symbolic_convert.py:5368] [0/0] [__graph_breaks] "
	var in strings.Builder
	var wantFirst []int
	n := 0
	for _, f := range []string{"branch_print", "item", "cache_limit"} {
		l := head + "Graph break in user code at /work/repro/" + f + ".py:4"
		wantFirst = append(wantFirst, n+1)
		for len(l) > 100 {
			in.WriteString(l[:100] + "\n")
			l = l[100:]
			n++
		}
		in.WriteString(l + "\n")
		n++
		in.WriteString("output\n")
		n++
	}
	var first []int
	p := NewParser(Options{Rank: -1, wrap: WrapWidth([]byte(in.String()))}, func(r *Record) {
		if r.Kind == KindGraphBreak {
			first = append(first, r.FirstLine)
		}
	})
	p.Write([]byte(in.String()))
	p.Flush()
	if !slices.Equal(first, wantFirst) || p.Lines() != n {
		t.Errorf("first lines %v, want %v; %d lines, want %d", first, wantFirst, p.Lines(), n)
	}
}

// FuzzWrapped: any text hard-wrapped at a width WrapWidth then finds parses into the records of the text as printed
// (line numbers aside: a joined line is numbered as its first piece), where the wrap is not ambiguous: no line of
// exactly k×width runes, no piece that starts a line of its own. Seeded with the fixtures:
// go test ./logparse -run '^$' -fuzz FuzzWrapped -fuzztime 10m
func FuzzWrapped(f *testing.F) {
	for i, p := range seedFiles(f) {
		if strings.Contains(p, ".trace") || strings.Contains(p, "tlparse") || strings.Contains(p, "synthetic_wrapped") || i%3 != 0 {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 16<<10)], uint8(i))
	}
	lineNums := regexp.MustCompile(` l\d+-\d+ `)
	parse := func(text string, wrap int) []string {
		var out []string
		p := NewParser(Options{Rank: -1, KeepText: true, wrap: wrap}, func(r *Record) {
			out = append(out, lineNums.ReplaceAllString(sig(r), " ")+" "+strings.Join(r.Lines, "\x00"))
		})
		p.Write([]byte(text))
		p.Flush()
		return out
	}
	f.Fuzz(func(t *testing.T, data []byte, w uint8) {
		width := minWrap + int(w)%61 // 60 to 120 columns
		if !utf8.Valid(data) || bytes.ContainsAny(data, "\r\x1b\x00") {
			return
		}
		text := string(data[:bytes.LastIndexByte(data, '\n')+1])
		var folded strings.Builder
		for l := range strings.Lines(text) {
			r := []rune(strings.TrimSuffix(l, "\n"))
			if len(r) > 0 && len(r)%width == 0 || len(l) > 4<<10 {
				return // ambiguous: its last piece is a whole piece; or past MaxLine's reach in pieces
			}
			for len(r) > width {
				folded.WriteString(string(r[:width]) + "\n")
				r = r[width:]
				if startsOwnLine([]byte(string(r))) {
					return // a piece that reads as a line of its own
				}
			}
			folded.WriteString(string(r) + "\n")
		}
		in := folded.String()
		if WrapWidth([]byte(in[:min(len(in), headSize)])) != width {
			return // not seen as wrapped: read as it is
		}
		if got, want := parse(in, width), parse(text, -1); !slices.Equal(got, want) {
			t.Fatalf("wrapped at %d:\n got %q\nwant %q", width, got, want)
		}
	})
}
