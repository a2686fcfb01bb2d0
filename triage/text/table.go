package text

import (
	"fmt"
	"slices"
	"strings"
)

// Column is one column of a Table.
type Column struct {
	Header string
	Wrap   bool   // may be narrower than its widest cell, its cells wrapped inside it; ids and counts never are
	Breaks string // with Wrap: where besides spaces a cell may break ("," for TORCH_LOGS lists)
}

const (
	tableGap     = 2  // spaces between columns
	maxWrapFloor = 24 // a wrapping column keeps its longest word up to this many columns
	minProse     = 24 // the last column, prose, is at least this wide (or as wide as its widest cell)
	stackIndent  = 4  // the last column under its row when its own column would not fit
)

// Table prints rows under a header, columns two spaces apart, fitted to the width: wrapping columns are
// narrowed, widest first, but not below their longest word (nor the last, prose, below minProse); when they
// still do not fit, the last column is printed under each row instead, indented, and its header left out.
func (t *Writer) Table(cols []Column, rows [][]string) {
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = t.o.Glyphs(c.Header)
	}
	cells := make([][]string, len(rows))
	for r, row := range rows {
		cells[r] = make([]string, len(cols))
		for i := range cols {
			if i < len(row) {
				cells[r][i] = t.o.Glyphs(row[i])
			}
		}
	}
	widths, floors := make([]int, len(cols)), make([]int, len(cols))
	for i, c := range cols {
		widths[i] = textWidth(head[i])
		floors[i] = widths[i]
		for _, row := range cells {
			widths[i] = max(widths[i], textWidth(row[i]))
			if c.Wrap {
				floors[i] = max(floors[i], min(longestWord(row[i], c.Breaks), maxWrapFloor))
			}
		}
		if !c.Wrap {
			floors[i] = widths[i]
		}
	}
	last, natural := len(cols)-1, slices.Clone(widths)
	if cols[last].Wrap { // prose gets a readable column, its words whole (a name cut in two reads as another), or goes under its row
		floors[last] = max(floors[last], min(widths[last], minProse))
		for _, row := range cells {
			floors[last] = max(floors[last], longestWord(row[last], cols[last].Breaks))
		}
	}
	if !narrow(widths, floors, t.o.Cols()) && last > 0 && cols[last].Wrap {
		widths, floors = natural[:last], floors[:last]
		narrow(widths, floors, t.o.Cols())
		t.row(cols, head[:last], widths)
		indent := tableGap + widths[0]
		if indent > t.o.Cols()/2 {
			indent = stackIndent
		}
		for _, row := range cells {
			t.row(cols, row[:last], widths)
			t.Line(indent, strings.Repeat(" ", indent)+row[last])
		}
		return
	}
	t.row(cols, head, widths)
	for _, row := range cells {
		t.row(cols, row, widths)
	}
}

// narrow shrinks the columns, the widest above its floor first, until they fit in cols; false when they
// cannot.
func narrow(widths, floors []int, cols int) bool {
	total := tableGap * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	for ; total > cols; total-- {
		best := -1
		for i, w := range widths {
			if w > floors[i] && (best < 0 || w > widths[best]) {
				best = i
			}
		}
		if best < 0 {
			return false
		}
		widths[best]--
	}
	return true
}

// row prints one row: each cell wrapped in its column, the row as tall as its tallest cell.
func (t *Writer) row(cols []Column, cells []string, widths []int) {
	lines := make([][]string, len(cells))
	height := 1
	for i, c := range cells {
		lines[i] = []string{c}
		if textWidth(c) > widths[i] {
			lines[i] = wrap(c, widths[i], widths[i], cols[i].Breaks)
		}
		height = max(height, len(lines[i]))
	}
	for l := range height {
		var b strings.Builder
		for i := range cells {
			cell := ""
			if l < len(lines[i]) {
				cell = strings.TrimSpace(lines[i][l])
			}
			b.WriteString(cell)
			if i < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", max(widths[i]-textWidth(cell), 0)+tableGap))
			}
		}
		fmt.Fprintln(t.w, strings.TrimRight(b.String(), " "))
	}
}

// longestWord is the widest piece of s between spaces and breaks, with room for the break character that
// ends it (a column narrower than that breaks the word).
func longestWord(s, breaks string) int {
	widest := 0
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || strings.ContainsRune(breaks, r) }) {
		widest = max(widest, textWidth(w)+1)
	}
	return widest
}
