package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// A run that stalls (a real process that prints once, then nothing past the watchdog's limit) shows the stall
// banner; w dismisses it and the run goes on. c still cancels it then: it did nothing once the banner was gone
// (only q then y stopped the run).
func TestCancelStillWorksAfterKeepWaiting(t *testing.T) {
	m, h := stalledAndKeptWaiting(t)
	h.key("c")
	if !strings.Contains(plain(m), "cancelling the run") {
		t.Errorf("c after w does not cancel the run:\n%s", plain(m))
	}
	h.until("the run to stop", func() bool { return finished(m) })
	if s := plain(m); !strings.Contains(s, "stopped by torchtriage") {
		t.Errorf("the run was not stopped by c:\n%s", s)
	}
}

// On every screen of a live run whose stall banner was dismissed, c means what the banner said it means: the
// binding that cancels the run.
func TestCancelKeyOfTheBannerWorksOnEveryScreenAfterW(t *testing.T) { bannerKeyOnEveryScreen(t, "c") }

// bannerKeyOnEveryScreen checks that key, on every screen of a live run whose stall banner w dismissed, is the
// binding the banner offers.
func bannerKeyOnEveryScreen(t *testing.T, key string) {
	t.Helper()
	banner := liveModel(t, 120, 32)
	feedRun(t, banner, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", -1)
	banner.cur.stalled = true
	want := banner.keys.lookup(banner.scopes(), keyMsg(key))
	if want == nil {
		t.Fatalf("%s means nothing on the stall banner", key)
	}
	for _, s := range []screen{screenMain, screenDetail, screenLog, screenRuns, screenDiff, screenRanks, screenTimeline,
		screenHelp, screenGuide, screenInfo} {
		m := liveModel(t, 120, 32)
		feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", -1)
		m.screen, m.cur.stalled, m.cur.dismissed = s, true, true
		got := m.keys.lookup(m.scopes(), keyMsg(key))
		if got == nil || got.Help() != want.Help() {
			desc := "nothing"
			if got != nil {
				desc = fmt.Sprintf("%q", got.Help().Desc)
			}
			t.Errorf("screen %d after w: %s means %s, the banner's %s means %q", s, key, desc, key, want.Help().Desc)
		}
	}
}

// s (dump stacks) keeps working once w dismissed the stall banner, as c does: it was a binding of the banner's
// scope only, so after w it meant nothing and the run's stacks could not be asked for again.
func TestDumpStacksStillWorksAfterKeepWaiting(t *testing.T) {
	m, h := stalledAndKeptWaiting(t)
	m.flash = ""
	h.key("s")
	// sh registered no stack dumper (no probe): the answer is that error, and any answer shows s did something
	h.until("the stack dump's answer", func() bool { return strings.HasPrefix(m.flash, "stack dump:") || strings.HasPrefix(m.flash, "asked ") })
	if !strings.Contains(plain(m), "stack dump: no stack dumper registered") {
		t.Errorf("s after w: %q\n%s", m.flash, plain(m))
	}
	h.key("c")
	h.until("the run to stop", func() bool { return finished(m) })
}

// On every screen of a live run whose stall banner was dismissed, s means what the banner said it means; on an
// opened log (no run to ask) it says so instead of failing.
func TestDumpStacksKeyOfTheBannerWorksOnEveryScreenAfterW(t *testing.T) {
	bannerKeyOnEveryScreen(t, "s")
	o := openModel(t, 120, 32, "r07_fullgraph.triage.log")
	press(o, "s")
	if !strings.Contains(plain(o), "no run is live") {
		t.Errorf("s on an opened log:\n%s", plain(o))
	}
}

// The stall banner's keys come from the key table at every width, its short forms too: at 80, 60 and 40 columns
// it names only keys that the table binds on the banner, and every binding of the banner by one of its keys,
// uncut. A table whose banner keys were rebound shows the new keys (the narrow forms were written by hand: "s
// stacks · c cancel · w wait" and "s · c · w" stayed whatever the table said).
func TestStallBannerNamesOnlyTheTablesKeys(t *testing.T) {
	rebound := func(k keyMap) keyMap {
		k = slices.Clone(k)
		next := map[string]string{"dump stacks": "S", "cancel run": "K", "keep waiting": "W"}
		for i := range k {
			if !k[i].worksIn(scopeStall) {
				continue
			}
			nk, ok := next[k[i].Help().Desc]
			if !ok {
				t.Fatalf("a banner binding this test does not know: %q", k[i].Help().Desc)
			}
			k[i].SetKeys(nk)
			k[i].SetHelp(nk, k[i].Help().Desc)
		}
		return k
	}
	for _, table := range []string{"the key table", "a table with the banner's keys rebound"} {
		for _, w := range []int{80, 60, 40} {
			m := liveModel(t, w, 24)
			r := feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", -1)
			if table != "the key table" {
				m.keys = rebound(m.keys)
			}
			m.Update(batchMsg{session.Batch{RunID: r.id, Log: r.log, Notes: []session.Note{{Kind: session.EventStalled, Since: fixedNow.Add(-42e9)}}}})
			lines := strings.Split(plain(m), "\n")
			banner := lines[len(lines)-2]
			const text = " ⚠ no output for 42s"
			if !strings.HasPrefix(banner, text) {
				t.Fatalf("%s, %d columns: the banner is not the stall text and its keys: %q", table, w, banner)
			}
			keys := strings.TrimSpace(strings.TrimPrefix(banner, text))
			if keys == "" || strings.Contains(keys, "…") {
				t.Errorf("%s, %d columns: the banner's keys are cut or gone: %q", table, w, banner)
				continue
			}
			named := map[*binding]bool{}
			for _, item := range strings.Split(keys, " · ") {
				for _, k := range strings.Split(strings.Fields(item)[0], "/") {
					b := m.keys.lookup([]scope{scopeStall}, keyMsg(k))
					if b == nil {
						t.Errorf("%s, %d columns: the banner names %q, which the table does not bind on the banner: %q", table, w, k, keys)
						continue
					}
					named[b] = true
				}
			}
			for i := range m.keys {
				if b := &m.keys[i]; b.worksIn(scopeStall) && !named[b] {
					t.Errorf("%s, %d columns: the banner leaves out %q (%s): %q", table, w, b.Help().Key, b.Help().Desc, keys)
				}
			}
		}
	}
}

// stalledAndKeptWaiting runs a real process that prints once and then nothing past a 300 ms stall watchdog, waits
// for the stall banner, and presses w: the banner is gone and the run goes on.
func stalledAndKeptWaiting(t *testing.T) (*Model, *harness) {
	t.Helper()
	store, err := runs.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(options{mode: modeRun, spec: runs.Spec{Argv: []string{"sh", "-c", "echo started; exec sleep 20"},
		Preset: "breaks", Stall: 300 * time.Millisecond}, store: store, set: builtinSet(t)})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	h := newHarness(t, m)
	h.until("the stall banner", func() bool { return m.stallBanner() && m.sess.Handle(m.cur.id) != nil })
	h.key("w")
	if m.stallBanner() || m.cur.done {
		t.Fatalf("w should dismiss the banner and keep the run going:\n%s", plain(m))
	}
	return m, h
}
