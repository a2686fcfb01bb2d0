package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// keyStates puts a model in every state that has keys of its own: each screen (with and without the stall
// banner), the picker, the input line and a question.
func keyStates(t *testing.T) map[string]*Model {
	t.Helper()
	out := map[string]*Model{}
	mk := func() *Model {
		m := liveModel(t, 120, 32)
		feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
		feedRun(t, m, 2, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", -1)
		return m
	}
	for _, s := range []screen{screenMain, screenDetail, screenLog, screenRuns, screenDiff, screenRanks, screenTimeline,
		screenHelp, screenGuide, screenInfo} {
		for _, stall := range []bool{false, true} {
			m := mk()
			m.screen, m.cur.stalled = s, stall
			out[fmt.Sprintf("screen %d stall %v", s, stall)] = m
		}
	}
	picker, typing, asking := mk(), mk(), mk()
	press(picker, "p")
	press(typing, "/")
	press(asking, "q")
	out["picker"], out["input line"], out["question"] = picker, typing, asking
	return out
}

// TestNoKeyMeansTwoThingsOnAScreen: among the bindings active in a state no key appears twice, and every key
// of every active binding reaches that binding.
func TestNoKeyMeansTwoThingsOnAScreen(t *testing.T) {
	for name, m := range keyStates(t) {
		active := m.scopes()
		owner := map[string]string{}
		for i := range m.keys {
			b := &m.keys[i]
			if !b.worksIn(active...) {
				continue
			}
			for _, k := range b.Keys() {
				if o, dup := owner[k]; dup {
					t.Errorf("%s: %q means both %q and %q", name, k, o, b.Help().Desc)
				}
				owner[k] = b.Help().Desc
				msg := keyMsg(k)
				if msg.String() != k {
					t.Fatalf("keyMsg(%q) reads %q", k, msg.String())
				}
				if got := m.keys.lookup(active, msg); got != b {
					t.Errorf("%s: %q does not reach %q", name, k, b.Help().Desc)
				}
			}
		}
		if len(owner) == 0 {
			t.Errorf("%s: no keys at all", name)
		}
	}
}

// TestEveryBindingIsInHelpUnderItsScreen reads the help screen (one column, unscrolled text) group by group:
// every binding is listed under each scope it works in, and under no other.
func TestEveryBindingIsInHelpUnderItsScreen(t *testing.T) {
	m := liveModel(t, 60, 30)
	titles := map[string]scope{}
	for s, title := range scopeTitles {
		titles[title] = scope(s)
	}
	listed := map[scope][]string{}
	cur := scope(-1)
	for _, l := range m.helpText(m.w) {
		l = strings.TrimSpace(ansi.Strip(l))
		if s, ok := titles[l]; ok {
			cur = s
		} else if l != "" && cur >= 0 {
			listed[cur] = append(listed[cur], strings.Join(strings.Fields(l), " "))
		}
	}
	for i := range m.keys {
		b := &m.keys[i]
		item := b.Help().Key + " " + b.Help().Desc
		for s := range numScopes {
			n := strings.Count("\n"+strings.Join(listed[s], "\n")+"\n", "\n"+item+"\n")
			if want := b.worksIn(s); want && n == 0 {
				t.Errorf("help lacks %q under %q", item, scopeTitles[s])
			} else if !want && n > 0 && !sameItemIn(m.keys, s, item) {
				t.Errorf("help lists %q under %q, where it does not work", item, scopeTitles[s])
			}
		}
	}
}

// sameItemIn reports whether another binding of scope s has the same help text.
func sameItemIn(k keyMap, s scope, item string) bool {
	for _, b := range k.scopeHelp(s, false) {
		if b.Help().Key+" "+b.Help().Desc == item {
			return true
		}
	}
	return false
}

// The footer and the stall banner show only bindings that work where they are shown.
func TestFooterListsOnlyKeysThatWorkThere(t *testing.T) {
	for name, m := range keyStates(t) {
		head, tail := m.footer()
		if len(tail) == 0 {
			t.Errorf("%s: nothing at the end of the footer", name)
		}
		active := map[string]bool{}
		for i := range m.keys {
			if m.keys[i].worksIn(m.scopes()...) {
				active[m.keys[i].Help().Key+" "+m.keys[i].Help().Desc] = true
			}
		}
		for _, b := range append(head, tail...) {
			if !active[b.Help().Key+" "+b.Help().Desc] {
				t.Errorf("%s: the footer shows %q, which does not work there", name, b.Help().Key)
			}
		}
	}
}

// q closes every sub-screen (the tig habit) and quits only from the main screen, asking while a repro runs.
func TestQClosesSubScreensAndQuitsFromMain(t *testing.T) {
	m := liveModel(t, 100, 30)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	feedRun(t, m, 2, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", -1)
	for _, keys := range [][]string{{"enter"}, {"l"}, {"R"}, {"t"}, {"h"}, {"?"}, {"n"}, {"d"}, {"enter", "l", "q"}} {
		press(m, keys...)
		if m.screen == screenMain {
			t.Fatalf("%v did not open a sub-screen", keys)
		}
		if cmd := press(m, "q"); cmd != nil || m.prompt != nil || m.screen != screenMain {
			t.Fatalf("q after %v: screen %v, prompt %v, command %v; want the main screen", keys, m.screen, m.prompt, cmd != nil)
		}
	}
	press(m, "p")
	if press(m, "q"); m.pre.picking || m.prompt != nil {
		t.Fatal("q should close the preset picker")
	}
	if press(m, "q"); m.prompt == nil || m.prompt.text != quitQuestion {
		t.Fatal("q on the main screen should ask while the repro runs")
	}
	press(m, "n")
	for _, keys := range [][]string{{"R"}, {"/"}, {"p"}, {"l", "/"}} {
		press(m, keys...)
		if press(m, "ctrl+c"); m.prompt == nil || m.prompt.text != quitQuestion {
			t.Fatalf("ctrl+c after %v should ask", keys)
		}
		if cmd := press(m, "ctrl+c"); cmd == nil {
			t.Fatalf("a second ctrl+c after %v should quit", keys)
		} else if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Fatalf("a second ctrl+c after %v should return tea.Quit", keys)
		}
		m.typing, m.pre.picking, m.screen = false, false, screenMain
	}
}

// g and G go to the ends of every list: the two lists, the preset picker, the runs view, the checklist.
func TestGAndGWorkInEveryList(t *testing.T) {
	m := liveModel(t, 100, 30)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	feedRun(t, m, 2, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
	for _, c := range []struct {
		name   string
		open   []string
		cursor func() int
		n      int
	}{
		{"breaks", nil, func() int { return m.lists[paneBreaks].idx }, m.lists[paneBreaks].len()},
		{"recompiles", []string{"tab"}, func() int { return m.lists[paneRecompiles].idx }, m.lists[paneRecompiles].len()},
		{"picker", []string{"p"}, func() int { return m.pre.pick }, len(runs.Presets())},
		{"runs", []string{"h"}, func() int { return m.runsv.idx }, 2},
		{"checklist", []string{"n"}, func() int { return m.guide.idx }, 6},
	} {
		press(m, c.open...)
		if press(m, "G"); c.cursor() != c.n-1 || c.n < 2 {
			t.Errorf("%s: G put the cursor on %d of %d", c.name, c.cursor(), c.n)
		}
		if press(m, "g"); c.cursor() != 0 {
			t.Errorf("%s: g put the cursor on %d", c.name, c.cursor())
		}
		press(m, "esc")
		m.setFocus(paneBreaks)
	}
}
