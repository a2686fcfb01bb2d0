package tui

import "fmt"

// detailState: the evidence record under the cursor and the scroll offset.
type detailState struct {
	ev     int
	scroll scrollState
	reveal bool // the evidence cursor moved: layout scrolls it into view
}

// pickRecord moves the evidence cursor.
func (m *Model) pickRecord(d int) {
	if r := m.selected(); r != nil {
		m.det.ev = max(min(m.det.ev+d, len(r.evidence)-1), 0)
		m.det.reveal = true
	}
}

// jumpToRecord opens the log at the selected evidence record.
func (m *Model) jumpToRecord() {
	r := m.selected()
	switch {
	case r == nil:
		return
	case len(r.evidence) == 0:
		m.flash = "this finding has no evidence record to jump to"
		return
	}
	e := r.evidence[min(m.det.ev, len(r.evidence)-1)]
	at := m.cur.log.Find(e.Input, e.InputLine)
	if at < 0 {
		m.flash = fmt.Sprintf("%s:%d is not in the log view", e.Input, e.InputLine)
		return
	}
	m.openLog(at)
}
