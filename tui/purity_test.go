package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// stateOf is what keys change and View used to write: screen, focus, cursors, offsets, pages, the text built
// for the screen, and the render caches.
func stateOf(m *Model) string {
	var b strings.Builder
	fmt.Fprintf(&b, "screen %v back %v focus %v last %v typing %v %q prompt %v picking %v pick %d bar %d\n", m.screen,
		m.back, m.focus, m.last, m.typing, m.input.value, m.prompt != nil, m.pre.picking, m.pre.pick, m.pre.cursor)
	for p, ls := range m.lists {
		fmt.Fprintf(&b, "list %d idx %d off %d key %q pattern %q\n", p, ls.idx, ls.off, ls.key, ls.pattern)
	}
	lv := m.logv
	fmt.Fprintf(&b, "log off %d cur %d follow %v page %d rank %d hoff %d query %q filt %v\n", lv.off, lv.cur, lv.follow,
		lv.page, lv.rank, lv.hoff, lv.query, lv.filt)
	fmt.Fprintf(&b, "detail %+v runs %+v guide %+v help %+v ranks %+v timeline %+v\n", m.det, m.runsv, m.guide, m.helpv,
		m.ranksv, m.tlv)
	if m.diff != nil {
		fmt.Fprintf(&b, "diff %d→%d %+v\n", m.diff.from.id, m.diff.to.id, m.diff.scroll)
	}
	fmt.Fprintf(&b, "text %v %d %q %d lines mark %d\n", m.text.screen, m.text.w, m.text.title, len(m.text.lines), m.text.mark)
	var cached []string
	for k := range m.pbText {
		cached = append(cached, k)
	}
	slices.Sort(cached)
	fmt.Fprintf(&b, "cached %v flash %q", cached, m.flash)
	return b.String()
}

// purityMsgs visit every screen with the keys that move and scroll, a resize and mouse wheels in between.
func purityMsgs() []tea.Msg {
	var out []tea.Msg
	keys := func(ks ...string) {
		for _, k := range ks {
			out = append(out, keyMsg(k))
		}
	}
	keys("down", "pgdown", "G", "pgup", "g", "tab", "pgdown", "down", "down", "up", "up", "up", "G", "up", "up", "up", "up")
	keys("up", "shift+tab", "tab", "tab", "right", "space", "left")
	keys("tab", "enter", "down", "pgdown", "pgdown", "up", "G", "g", "down", "l", "pgdown", "pgup", "esc", "q")
	keys("l", "g", "pgdown", "pgdown", "up", "/", "R", "e", "c", "enter", "n", "N", "f", "pgdown", "right", "G", "F", "q")
	out = append(out, tea.WindowSizeMsg{Width: 80, Height: 24})
	keys("R", "pgdown", "pgdown", "down", "G", "q", "t", "pgdown", "G", "up", "q", "?", "pgdown", "pgdown", "G", "?")
	out = append(out, tea.MouseWheelMsg{Button: tea.MouseWheelDown}, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	keys("h", "G", "pgup", "down", "space", "d", "pgdown", "G", "esc", "n", "G", "pgup", "q", "p", "G", "pgup", "g")
	keys("down", "esc", "/", "p", "r", "enter", "pgdown", "enter", "G", "l", "q")
	out = append(out, tea.WindowSizeMsg{Width: 120, Height: 32}, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	return append(out, keyMsg("q"), keyMsg("pgdown"), keyMsg("n"))
}

// TestSameKeysSameStateWithOrWithoutFrames: View writes nothing, so the same messages give the same state and
// the same final frame whether a frame was drawn after each of them or never.
func TestSameKeysSameStateWithOrWithoutFrames(t *testing.T) {
	mk := func() *Model {
		m := liveModel(t, 100, 16) // short: the lists scroll
		m.opt.color, m.th = true, newTheme(true, true)
		feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
		feedRun(t, m, 2, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", -1)
		return m
	}
	drawn, blind := mk(), mk()
	_ = drawn.View()
	for i, msg := range purityMsgs() {
		drawn.Update(msg)
		before := stateOf(drawn)
		_ = drawn.View()
		if after := stateOf(drawn); after != before {
			t.Fatalf("message %d (%v): View changed the model:\n%s\nto\n%s", i, msg, before, after)
		}
		blind.Update(msg)
		if a, b := stateOf(drawn), stateOf(blind); a != b {
			t.Fatalf("message %d (%v): drawn and undrawn models differ:\n%s\nvs\n%s", i, msg, a, b)
		}
	}
	if drawn.render() != blind.render() {
		t.Errorf("final frames differ:\n%s\nvs\n%s", plain(drawn), plain(blind))
	}
}

// A page key moves a whole page before any frame is drawn: the page comes from the terminal's size.
func TestPageKeysMoveAPageBeforeTheFirstFrame(t *testing.T) {
	for _, c := range []struct {
		name, file string
		h          int
		keys       []string
		off        func(m *Model) int
		page       func(m *Model) int
	}{
		{"log", "r05_dist_c10d.triage.log", 24, []string{"l", "g", "pgdown"}, func(m *Model) int { return m.logv.off },
			func(m *Model) int { return m.bodyHeight(screenLog) - 3 }},
		{"ranks", "r05_dist_c10d.triage.log", 12, []string{"R", "pgdown"}, func(m *Model) int { return m.ranksv.off },
			func(m *Model) int { return m.bodyHeight(screenRanks) - 3 }},
		{"list", "gb_recompile.triage.log", 24, []string{"tab", "pgdown"}, func(m *Model) int { return m.lists[paneRecompiles].idx },
			(*Model).listPage},
	} {
		m := liveModel(t, 80, c.h)
		feedRun(t, m, 1, c.file, "breaks", "graph_breaks,recompiles", 0)
		press(m, c.keys...)
		if got, want := c.off(m), c.page(m); got != want || want < 2 {
			t.Errorf("%s: %v moved to %d, want a page (%d)", c.name, c.keys, got, want)
		}
	}
}
