package tui

import tea "charm.land/bubbletea/v2"

// The keys of the moves, shared by the Move scope and the detail view (which moves its evidence cursor and
// scrolls its text with them).
const (
	keysUp       = "up k"
	keysDown     = "down j"
	keysPageUp   = "pgup ctrl+u"
	keysPageDown = "pgdown ctrl+d"
	keysTop      = "home g"
	keysBottom   = "end G"
)

// do turns a method without a command into a binding's action.
func do(f func(m *Model)) func(m *Model) tea.Cmd {
	return func(m *Model) tea.Cmd {
		f(m)
		return nil
	}
}

func moveBy(mo motion) func(m *Model) tea.Cmd { return do(func(m *Model) { m.move(mo) }) }

func toggleScreen(s screen) func(m *Model) tea.Cmd { return do(func(m *Model) { m.toggle(s) }) }

// newKeyMap is the key table. Its order is the order of the footers (what does not fit is cut) and of each
// group of the help.
func newKeyMap() keyMap {
	moveFoot := []scope{scopeMove, scopeRuns, scopeGuide, scopePicker}
	return keyMap{
		bind(scopeMove, keysUp, "↑/k", "up", moveBy(lineUp)).footer(moveFoot...),
		bind(scopeMove, keysDown, "↓/j", "down", moveBy(lineDown)).footer(moveFoot...),
		bind(scopeMove, keysPageUp, "pgup", "page up", moveBy(pageUp)),
		bind(scopeMove, keysPageDown, "pgdn", "page down", moveBy(pageDown)),
		bind(scopeMove, keysTop, "g", "top", moveBy(toTop)),
		bind(scopeMove, keysBottom, "G", "bottom", moveBy(toBottom)),

		bind(scopeDetail, keysUp, "↑/k", "previous record", do(func(m *Model) { m.pickRecord(-1) })).footer(scopeDetail),
		bind(scopeDetail, keysDown, "↓/j", "next record", do(func(m *Model) { m.pickRecord(1) })).footer(scopeDetail),
		bind(scopeDetail, "enter", "enter", "log at the record", do((*Model).jumpToRecord)).footer(scopeDetail),
		bind(scopeDetail, keysPageUp, "pgup", "scroll up", do(func(m *Model) { m.det.scroll.move(pageUp) })).footer(scopeDetail),
		bind(scopeDetail, keysPageDown, "pgdn", "scroll down", do(func(m *Model) { m.det.scroll.move(pageDown) })).footer(scopeDetail),
		bind(scopeDetail, keysTop, "g", "top", do(func(m *Model) { m.det.scroll.move(toTop) })),
		bind(scopeDetail, keysBottom, "G", "bottom", do(func(m *Model) { m.det.scroll.move(toBottom) })),

		bind(scopeEverywhere, "r", "r", "rerun", (*Model).askRelaunch).footer(scopeLists).launching(),
		bind(scopeLists, "space", "space", "toggle", do((*Model).togglePresetEntry)).footer(scopeLists).launching(),
		bind(scopeLists, "p", "p", "preset", do((*Model).openPicker)).footer(scopeLists).launching(),
		bind(scopeLists, "tab", "tab", "pane", do(func(m *Model) { m.focusPane(m.nextPane(1)) })).footer(scopeLists),
		bind(scopeLists, "shift+tab", "shift+tab", "pane back", do(func(m *Model) { m.focusPane(m.nextPane(-1)) })),
		bind(scopeLists, "left", "←", "breaks · bar: previous", do(func(m *Model) { m.sideways(-1) })),
		bind(scopeLists, "right", "→", "recompiles · bar: next", do(func(m *Model) { m.sideways(1) })),
		bind(scopeLists, "enter", "enter", "detail", do((*Model).openDetail)).footer(scopeLists),
		bind(scopeLists, "/", "/", "filter", do((*Model).filterList)).footer(scopeLists),
		bind(scopeLists, "esc", "esc", "clear the filter", do((*Model).clearFilter)),

		bind(scopeLog, "/", "/", "search", do(func(m *Model) { m.startTyping(m.logv.query) })).footer(scopeLog),
		bind(scopeLog, "n", "n", "next match", func(m *Model) tea.Cmd { return m.logv.search(m, m.logv.query, 1, false) }).footer(scopeLog),
		bind(scopeLog, "N", "N", "previous match", func(m *Model) tea.Cmd { return m.logv.search(m, m.logv.query, -1, false) }).footer(scopeLog),
		bind(scopeLog, "F", "F", "follow", do((*Model).toggleFollow)).footer(scopeLog),
		bind(scopeLog, "f", "f", "rank filter", do((*Model).nextRankFilter)).footer(scopeLog),
		bind(scopeLog, "P", "P", "hide log prefixes", do(func(m *Model) { m.logv.bare = !m.logv.bare })).footer(scopeLog),
		bind(scopeLog, "W", "W", "wrap lines", do(func(m *Model) { m.logv.wrap = !m.logv.wrap })).footer(scopeLog),
		bind(scopeLog, "left", "←", "scroll left", do(func(m *Model) { m.logv.hoff = max(m.logv.hoff-20, 0) })),
		bind(scopeLog, "right", "→", "scroll right", do(func(m *Model) { m.logv.hoff += 20 })),

		bind(scopeRuns, "enter", "enter", "show", (*Model).showRun).footer(scopeRuns),
		bind(scopeRuns, "N", "N", "note on run", do((*Model).noteRun)).footer(scopeRuns),
		bind(scopeRuns, "space", "space", "mark for diff", do((*Model).markRun)).footer(scopeRuns),

		bind(scopeGuide, "enter y", "enter/y", "run step", (*Model).runStep).footer(scopeGuide),
		bind(scopeGuide, "n", "n", "close", do((*Model).goBack)),
		bind(scopeGuide, "m", "m", "metric", do((*Model).startMetric)).footer(scopeGuide).in(scopeRuns),

		bind(scopeEverywhere, "l", "l", "log", do((*Model).logKey)).footer(scopeLists),
		bind(scopeEverywhere, "h", "h", "runs", (*Model).toggleRuns).footer(scopeLists),
		bind(scopeEverywhere, "d", "d", "diff", do((*Model).diffKey)).footer(scopeLists, scopeRuns),
		bind(scopeEverywhere, "R", "R", "ranks", toggleScreen(screenRanks)).footer(scopeLists),
		bind(scopeEverywhere, "t", "t", "timeline", toggleScreen(screenTimeline)).footer(scopeLists),
		bind(scopeLists, "n", "n", "next step", do((*Model).openGuide)).footer(scopeLists),
		bind(scopeEverywhere, "L", "L", "backend ladder on this repro", (*Model).askLadder).footer(scopeGuide).launching(),
		bind(scopeLadder, "esc ctrl+c", "esc/ctrl+c", "stop the ladder", do((*Model).stopLadder)).atEnd(),
		bind(scopeEverywhere, "i", "i", "command, verdict in full", toggleScreen(screenInfo)),

		// one binding each for the banner and every screen: s and c keep working once w dismissed the banner
		bind(scopeEverywhere, "s", "s", "dump stacks", (*Model).dumpStacks).brief("stacks").in(scopeStall).launching(),
		bind(scopeEverywhere, "c x", "c/x", "cancel run", do((*Model).stopRun)).brief("cancel").in(scopeStall).launching(),
		bind(scopeStall, "w", "w", "keep waiting", do(func(m *Model) { m.cur.dismissed = true })).brief("wait"),

		bind(scopePicker, "enter space", "enter", "pick", do(func(m *Model) { m.pickPreset() })).footer(scopePicker),
		bind(scopePicker, "r", "r", "pick and relaunch", func(m *Model) tea.Cmd { m.pickPreset(); return m.askRelaunch() }).footer(scopePicker).launching(),
		bind(scopePicker, "esc p q", "esc/p/q", "close", do(func(m *Model) { m.pre.picking = false })).atEnd(),

		bind(scopeInput, "enter", "enter", "done", (*Model).inputDone).footer(scopeInput),
		bind(scopeInput, "backspace ctrl+h", "backspace", "erase", do(func(m *Model) { m.edit((*inputLine).erase) })).footer(scopeInput),
		bind(scopeInput, "ctrl+w", "ctrl+w", "erase a word", do(func(m *Model) { m.edit((*inputLine).eraseWord) })).footer(scopeInput),
		bind(scopeInput, "ctrl+u", "ctrl+u", "erase all", do(func(m *Model) { m.edit((*inputLine).clear) })).footer(scopeInput),
		bind(scopeInput, "esc", "esc", "cancel", do((*Model).inputCancel)).atEnd(),

		bind(scopePrompt, "y enter", "y/enter", "yes", (*Model).yes).footer(scopePrompt),
		bind(scopePrompt, "n esc", "n/esc", "no", do(func(m *Model) { m.prompt = nil })).atEnd(),

		bind(scopeEverywhere, "ctrl+c", "ctrl+c", "quit (asks if running)", (*Model).interrupt).
			in(scopePicker, scopeInput, scopePrompt),
		bind(scopeEverywhere, "?", "?", "help", toggleScreen(screenHelp)).atEnd(),
		bind(scopeLists, "q", "q", "quit", (*Model).quit).atEnd(),
		bind(scopeBack, "esc q", "esc/q", "back", do((*Model).goBack)).atEnd(),
	}
}
