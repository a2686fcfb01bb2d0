package tui

// The initial selection: until the user moves the cursor or changes pane on a run, each list selects its
// top row and the focus goes to the pane of the top-ranked finding of both (the analysis sorts findings by
// impact), however the findings streamed in. Once the user moved, the selection follows the chosen finding.

// selectTop selects the top-ranked finding of a snapshot (refreshLists calls it before installing the rows).
func (m *Model) selectTop(s *snapshot) {
	if s == nil || s.analysis == nil || len(s.analysis.Findings) == 0 {
		return
	}
	top := paneBreaks
	if rightKinds[s.analysis.Findings[0].Kind] {
		top = paneRecompiles
	}
	for p := range m.lists {
		ls := &m.lists[p]
		ls.idx, ls.key = 0, ""
		if rows := s.list(pane(p)); len(rows) > 0 {
			ls.key = rows[0].key
		}
	}
	m.last = top
	if m.focus != panePresets {
		m.focus = top
	}
}

// userPicks records that the user chose what is selected on the run on screen.
func (m *Model) userPicks() {
	if m.cur != nil {
		m.cur.picked = true
	}
}

// focusPane is tab, shift+tab, ← and →: the user picks a pane.
func (m *Model) focusPane(p pane) {
	m.userPicks()
	m.setFocus(p)
}
