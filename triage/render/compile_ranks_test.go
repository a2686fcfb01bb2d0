package render

import (
	"strconv"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/report"
)

// The "Compile time and caches" table groups ranks with equal figures into one row, as the "Per rank" section
// does, in text and Markdown: 1,024 ranks print at most MaxPerRankLines rank rows (it printed 1,024), the largest
// group first, and a line saying what the rows leave out.
func TestCompileTableGroupsRanksWithEqualFigures(t *testing.T) {
	rc := func(total float64) report.RankCompile {
		return report.RankCompile{Source: "trace", TotalS: &total, Frames: 2}
	}
	few := &report.CompileReport{Source: "trace", PerRank: map[string]report.RankCompile{"0": rc(1.5), "1": rc(1.5), "2": rc(1.5), "3": rc(2)}}
	var b strings.Builder
	WriteCompileText(&b, few)
	rows := rankRows(b.String())
	if len(rows) != 3 || !strings.HasPrefix(rows[0], "  ranks 0–2 ") || !strings.HasPrefix(rows[1], "  rank 3 ") || !strings.HasPrefix(rows[2], "  all ") {
		t.Errorf("4 ranks, 3 alike: rows %q", rows)
	}

	many := &report.CompileReport{Source: "trace", PerRank: map[string]report.RankCompile{}}
	for r := range 1024 {
		many.PerRank[strconv.Itoa(r)] = rc(1.5)
		if r%32 == 7 { // 32 ranks of their own figures each
			many.PerRank[strconv.Itoa(r)] = rc(2 + float64(r)/1000)
		}
	}
	b.Reset()
	WriteCompileText(&b, many)
	rows = rankRows(b.String())
	if len(rows) != MaxPerRankLines+1 || !strings.HasPrefix(rows[0], "  ranks 0–6,8–38,") || !strings.Contains(rows[0], "(992 ranks)") ||
		!strings.HasPrefix(rows[1], "  rank 7 ") || !strings.HasPrefix(rows[len(rows)-1], "  all ") {
		t.Errorf("1024 ranks: %d rows %q", len(rows), rows)
	}
	if want := "  … 17 more groups of ranks (17 ranks): --format json has every rank\n"; !strings.Contains(b.String(), want) {
		t.Errorf("text does not say %q:\n%s", want, b.String())
	}
	b.Reset()
	WriteCompileMarkdown(&b, many)
	if n := strings.Count(b.String(), "\n| rank") - 1; n != MaxPerRankLines { // less the header
		t.Errorf("Markdown: %d rank rows, want %d:\n%s", n, MaxPerRankLines, b.String())
	}
	if !strings.Contains(b.String(), "17 more groups of ranks (17 ranks)") {
		t.Errorf("Markdown does not say what it leaves out:\n%s", b.String())
	}
}

// rankRows are the rows of the text's rank table: its lines after the header, up to the "all" row.
func rankRows(s string) []string {
	var rows []string
	for _, l := range strings.Split(s, "\n")[3:] { // after the blank line, the title and the header
		if strings.HasPrefix(l, "  rank ") || strings.HasPrefix(l, "  ranks ") || strings.HasPrefix(l, "  all ") {
			rows = append(rows, l)
		}
	}
	return rows
}
