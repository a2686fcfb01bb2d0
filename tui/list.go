package tui

import "github.com/torchtriage/torchtriage/tui/narrow"

// listState is the cursor, scroll offset and fuzzy filter of one list. The selection follows the row's key
// when the list is rebuilt (live updates) or filtered.
type listState struct {
	idx, off int
	key      string
	pattern  string
	view     []int         // rows shown, as indices into the full list; nil = all
	found    narrow.Result // with a pattern: the rows found (view) and where they matched
	rows     []*row        // the full list the view was computed for
	filter   *narrow.Filter
}

// setRows installs a new full list (same or new snapshot) and recomputes the filter and the selection.
func (ls *listState) setRows(rows []*row) {
	ls.rows, ls.filter = rows, nil
	ls.refilter()
}

// setPattern changes the filter.
func (ls *listState) setPattern(p string) {
	if p == ls.pattern {
		return
	}
	ls.pattern = p
	ls.refilter()
}

func (ls *listState) refilter() {
	ls.view, ls.found = nil, narrow.Result{}
	if ls.pattern != "" {
		if ls.filter == nil {
			texts := make([]string, len(ls.rows))
			for i, r := range ls.rows {
				texts[i] = r.search
			}
			ls.filter = narrow.New(texts)
		}
		ls.found = ls.filter.Find(ls.pattern)
		ls.view = ls.found.Index
	}
	ls.relocate()
}

// relocate puts the cursor back on the selected key, or keeps its position when the key is gone.
func (ls *listState) relocate() {
	n := ls.len()
	if ls.key != "" {
		for i := 0; i < n; i++ {
			if ls.at(i).key == ls.key {
				ls.idx = i
				return
			}
		}
	}
	ls.idx = min(max(ls.idx, 0), max(n-1, 0))
	if n > 0 {
		ls.key = ls.at(ls.idx).key
	}
}

func (ls *listState) len() int {
	if ls.view != nil || ls.pattern != "" {
		return len(ls.view)
	}
	return len(ls.rows)
}

// at returns the i-th shown row.
func (ls *listState) at(i int) *row {
	if ls.view != nil || ls.pattern != "" {
		return ls.rows[ls.view[i]]
	}
	return ls.rows[i]
}

// rowIndex is the index in the full list of the i-th shown row.
func (ls *listState) rowIndex(i int) int {
	if ls.view != nil || ls.pattern != "" {
		return ls.view[i]
	}
	return i
}

// selected returns the row under the cursor, or nil.
func (ls *listState) selected() *row {
	if ls.len() == 0 {
		return nil
	}
	return ls.at(min(ls.idx, ls.len()-1))
}

// move moves the cursor by delta rows (clamped) and remembers the key.
func (ls *listState) move(delta int) {
	n := ls.len()
	if n == 0 {
		ls.idx = 0
		return
	}
	ls.idx = min(max(ls.idx+delta, 0), n-1)
	ls.key = ls.at(ls.idx).key
}

// follow keeps the cursor within a window of h rows (Update, after every message).
func (ls *listState) follow(h int) {
	if h <= 0 {
		return
	}
	if ls.idx < ls.off {
		ls.off = ls.idx
	}
	if ls.idx >= ls.off+h {
		ls.off = ls.idx - h + 1
	}
	ls.off = max(min(ls.off, ls.len()-h), 0)
}

// first is the first row shown in a window of h rows (the offset follow set, clamped here for View).
func (ls *listState) first(h int) int { return max(min(ls.off, ls.len()-h), 0) }
