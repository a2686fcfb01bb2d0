package logparse

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// lineEnd is lineEndGeneric: for a newline, '\r' and ESC at every place of a step of 32 bytes and around it, at
// every alignment, in slices of every length up to 100, and in random text.
func TestLineEndIsItsDefinition(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		nl, sp := lineEnd(b)
		wnl, wsp := lineEndGeneric(b)
		if nl != wnl || sp != wsp {
			t.Fatalf("lineEnd(%q) = %d, %v; want %d, %v", b, nl, sp, wnl, wsp)
		}
	}
	buf := bytes.Repeat([]byte("x"), 200)
	for n := 0; n <= 100; n++ {
		for off := 0; off < 4; off++ {
			check(buf[off : off+n])
			for i := 0; i < n; i++ {
				for _, c := range []byte{'\n', '\r', 0x1b} {
					b := bytes.Clone(buf[off : off+n])
					b[i] = c
					check(b)
					for j := 0; j < n && off == 0; j++ { // a second special or newline before or after it
						for _, d := range []byte{'\n', '\r', 0x1b} {
							b2 := bytes.Clone(b)
							b2[j] = d
							check(b2)
						}
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte("ab \t\n\r\x1b\x00\xff[]:")
	for range 20000 {
		b := make([]byte, rng.Intn(300))
		for i := range b {
			if rng.Intn(20) == 0 {
				b[i] = alphabet[rng.Intn(len(alphabet))]
			} else {
				b[i] = 'a' + byte(rng.Intn(26))
			}
		}
		check(b)
	}
}

// Both ways Write splits lines (one pass with lineEnd, or the chunk scanned for '\r' and ESC apart) give the same
// records, line numbers and text, for every fixture as it is, with CRLF ends, with ANSI colours and with
// progress bars ('\r' inside lines), written in chunks of any size.
func TestWritePathsAgree(t *testing.T) {
	if !useLineEnd {
		t.Skip("no one-pass lineEnd on this machine")
	}
	defer func(v bool) { useLineEnd = v }(useLineEnd)
	parse := func(folded bool, data string, chunk int) string {
		useLineEnd = folded
		var rs []*Record
		p := NewParser(Options{Input: "t", Rank: -1, KeepText: true}, func(r *Record) { rs = append(rs, r) })
		for i := 0; i < len(data); i += chunk {
			p.Write([]byte(data[i:min(i+chunk, len(data))]))
		}
		p.Flush()
		b, _ := json.Marshal(rs)
		return string(b) + " lines " + itoaTest(p.Lines())
	}
	for _, f := range seedFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		plain := string(b)
		for name, data := range map[string]string{
			"plain": plain,
			"crlf":  strings.ReplaceAll(plain, "\n", "\r\n"),
			"ansi":  strings.ReplaceAll(strings.ReplaceAll(plain, "Graph break", "\x1b[31mGraph break\x1b[0m"), "[rank", "\x1b[1m[rank"),
			"bars":  strings.ReplaceAll(plain, "\nV", "\n 45%|####      | 9/20\r 50%|#####     | 10/20\rV"),
		} {
			if name != "plain" && (len(data) == len(plain) || strings.Contains(f, "torch_trace")) { // a trace file: JSON lines
				continue
			}
			for _, chunk := range []int{64 << 10, 4093, 7} {
				if chunk == 7 && len(data) > 32<<10 || chunk == 4093 && len(data) > 256<<10 {
					continue
				}
				if got, want := parse(true, data, chunk), parse(false, data, chunk); got != want {
					t.Errorf("%s %s, chunks of %d: the records differ\n one pass %.300s\n scanned  %.300s", f, name, chunk, got, want)
				}
			}
		}
	}
}

func itoaTest(n int) string { b, _ := json.Marshal(n); return string(b) }

// BenchmarkWritePaths parses every text fixture of torch 2.6–2.14 with [rankN]: prefixes (bench/biglog.sh's seed,
// ~6.7 MB, or $TORCHTRIAGE_BENCH_FILE) in 64 KB writes, SkipOther as report counts, both ways Write splits lines,
// each op once each in turns (the one pass first in every other op): the one pass (lineEnd) and the chunk scanned
// for '\r' and ESC apart. It reports the median time of each and the median of their ratios, op by op.
func BenchmarkWritePaths(b *testing.B) {
	if !useLineEnd {
		b.Skip("no one-pass lineEnd on this machine")
	}
	defer func(v bool) { useLineEnd = v }(useLineEnd)
	var data []byte
	files, _ := filepath.Glob("../testdata/fixtures/torch-2.*/*.log")
	for i, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		prefix := []byte("[rank" + itoaTest(i%8) + "]:")
		for _, l := range bytes.SplitAfter(d, []byte("\n")) {
			if len(l) > 0 {
				data = append(append(data, prefix...), l...)
			}
		}
	}
	if big := os.Getenv("TORCHTRIAGE_BENCH_FILE"); big != "" { // a file larger than the caches (bench/perf.sh's)
		d, err := os.ReadFile(big)
		if err != nil {
			b.Fatal(err)
		}
		data = d
	}
	parse := func(folded bool) float64 {
		useLineEnd = folded
		t0 := time.Now()
		p := NewParser(Options{Rank: -1, SkipOther: true}, func(*Record) {})
		for i := 0; i < len(data); i += 64 << 10 {
			p.Write(data[i:min(i+64<<10, len(data))])
		}
		p.Flush()
		return float64(time.Since(t0).Microseconds()) / 1000
	}
	var one, scanned, ratio []float64
	b.SetBytes(2 * int64(len(data)))
	for i := 0; b.Loop(); i++ {
		var o, s float64
		if i%2 == 0 {
			o, s = parse(true), parse(false)
		} else {
			s, o = parse(false), parse(true)
		}
		one, scanned, ratio = append(one, o), append(scanned, s), append(ratio, o/s)
	}
	med := func(v []float64) float64 { slices.Sort(v); return v[len(v)/2] }
	b.ReportMetric(med(one), "one-pass-ms")
	b.ReportMetric(med(scanned), "scanned-ms")
	b.ReportMetric(med(ratio), "ratio")
}
