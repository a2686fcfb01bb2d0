package text

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

func widest(s string) int {
	w := 0
	for _, l := range lines(s) {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}

func TestLineWrapsWithHang(t *testing.T) {
	var b strings.Builder
	tw := NewWriter(&b, Options{Width: 40})
	tw.Line(6, "  train.py:12 forward  ×3 ranks 0,1  Data-dependent branching on -NCCL_DEBUG and mode=\"reduce-overhead\" [GB0170]")
	got := lines(b.String())
	want := []string{
		"  train.py:12 forward  ×3 ranks 0,1",
		"      Data-dependent branching on",
		"      -NCCL_DEBUG and",
		`      mode="reduce-overhead" [GB0170]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	b.Reset()
	tw.Line(2, strings.Repeat("x", 100)) // a word wider than a line is broken, never lost
	if widest(b.String()) > 40 || strings.ReplaceAll(strings.ReplaceAll(b.String(), " ", ""), "\n", "") != strings.Repeat("x", 100) {
		t.Errorf("long word:\n%s", b.String())
	}
}

func TestItemsBreakBetweenItems(t *testing.T) {
	var b strings.Builder
	NewWriter(&b, Options{Width: 40}).Items(2, " · ", "graph breaks 3 distinct (7 records)", "recompiles 7",
		"limit hits 1", "cudagraph skips 0", "compile errors 0")
	want := "graph breaks 3 distinct (7 records) ·\n  recompiles 7 · limit hits 1 ·\n  cudagraph skips 0 · compile errors 0\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestGlyphsASCII(t *testing.T) {
	in := "a · b ×3 — c – d … e → f “g” ≥ 2 café"
	if got := (Options{}).Glyphs(in); got != in {
		t.Errorf("changed without ASCII: %q", got)
	}
	if got, want := (Options{ASCII: true}).Glyphs(in), `a - b x3 -- c - d ... e -> f "g" >= 2 caf?`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

var tableCols = []Column{{Header: "NAME"}, {Header: "TORCH_LOGS", Wrap: true, Breaks: ","}, {Header: "PURPOSE", Wrap: true}}

var tableRows = [][]string{
	{"cudagraphs", "perf_hints,cudagraphs,graph_breaks,recompiles", "Why CUDA graphs are skipped (perf hints), with breaks and recompiles."},
	{"a-very-long-preset-name", "graph_breaks", "Short."},
}

func TestTableFitsAndKeepsIDs(t *testing.T) {
	var b strings.Builder
	NewWriter(&b, Options{Width: 200}).Table(tableCols, tableRows)
	if got := lines(b.String()); len(got) != 3 || !strings.HasPrefix(got[0], "NAME                     TORCH_LOGS") {
		t.Errorf("wide table not one line a row:\n%s", b.String())
	}
	for _, width := range []int{80, 60} {
		b.Reset()
		NewWriter(&b, Options{Width: width}).Table(tableCols, tableRows)
		out := b.String()
		if widest(out) > width || !strings.Contains(out, "\na-very-long-preset-name ") || !strings.Contains(out, "perf_hints,") ||
			strings.Contains(out, "…") {
			t.Errorf("at %d:\n%s", width, out)
		}
	}
}

// When the last column cannot get room next to the others, it goes under each row.
func TestTableStacksTheLastColumn(t *testing.T) {
	var b strings.Builder
	NewWriter(&b, Options{Width: 40}).Table(tableCols, tableRows)
	got := lines(b.String())
	if widest(b.String()) > 40 || strings.Contains(got[0], "PURPOSE") || !strings.HasPrefix(got[1], "cudagraphs ") {
		t.Fatalf("stacked:\n%s", b.String())
	}
	var under []string
	for _, l := range got {
		if strings.HasPrefix(l, "    ") && strings.Contains(l, "CUDA graphs") {
			under = append(under, l)
		}
	}
	if len(under) != 1 {
		t.Errorf("the purpose is not under its row, indented:\n%s", b.String())
	}
}

// textWidth says what ansi.StringWidth says: each rune it counts as one column is one, and random texts of
// them, ASCII, wide runes, escapes and controls measure the same.
func TestTextWidthMatchesANSI(t *testing.T) {
	var narrow []rune
	for r := rune(0); r < 0x3000; r++ {
		if narrowRune(r) {
			narrow = append(narrow, r)
			if w := ansi.StringWidth(string(r)); w != 1 {
				t.Errorf("narrowRune(%U) but ansi.StringWidth %d", r, w)
			}
		}
	}
	for _, s := range []string{"", "plain ascii text 123 ~", "tab\there", "\x1b[1mbold\x1b[0m", "宽字符", "é", "ranks 0–511", "\x7f", "e\u0301"} {
		if got, want := textWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("textWidth(%q) = %d, ansi.StringWidth %d", s, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	others := []rune{'a', ' ', '\t', 0x1b, '[', 'm', 0x301, 0x200d, '宽', 0xfe0f, 0xad, '😀'}
	for range 20000 {
		rs := make([]rune, rng.IntN(12))
		for i := range rs {
			if rng.IntN(3) == 0 {
				rs[i] = others[rng.IntN(len(others))]
			} else {
				rs[i] = narrow[rng.IntN(len(narrow))]
			}
		}
		if got, want := textWidth(string(rs)), ansi.StringWidth(string(rs)); got != want {
			t.Fatalf("textWidth(%q) = %d, ansi.StringWidth %d", string(rs), got, want)
		}
	}
}

// A list of items never leaves its separator alone on a line: an item that fills the line to the last column
// but the separator's goes to the next line with it (the counts line of r01's guards log ended "limit hits 0"
// at column 80, and its "·" made a line of its own).
func TestItemsKeepTheSeparatorWithTheItem(t *testing.T) {
	var b strings.Builder
	first := strings.Repeat("a", 30)
	second := strings.Repeat("b", 17) // first + " · " + second is 50 columns: the separator after it would be the 51st
	NewWriter(&b, Options{Width: 50}).Items(2, " · ", first, second, "c")
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		if strings.TrimSpace(l) == "·" || textWidth(l) > 50 {
			t.Errorf("line %q of:\n%s", l, b.String())
		}
	}
	if want := first + " ·\n  " + second + " · c\n"; b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}
