package tui

import "charm.land/bubbles/v2/key"

// keyMap is the one key table: Update matches keys against it and the footer and `?` help are rendered from it.
type keyMap struct {
	Rerun, Toggle, Preset, Tab, BackTab, Up, Down, Left, Right, PgUp, PgDown, Top, Bottom key.Binding
	Enter, Filter, Log, Runs, Diff, Ranks, Timeline, Next, Stop, Help, Quit, Back         key.Binding
	Stacks, Cancel, Wait                                                                  key.Binding // stall banner
	Follow, NextMatch, PrevMatch, RankFilter, Jump, Mark, Note                            key.Binding // log, detail, runs
	Yes, No                                                                               key.Binding // prompts
}

func newKeyMap() keyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		Rerun:      b([]string{"r"}, "r", "rerun"),
		Toggle:     b([]string{"space"}, "space", "toggle"),
		Preset:     b([]string{"p"}, "p", "preset"),
		Tab:        b([]string{"tab"}, "tab", "pane"),
		BackTab:    b([]string{"shift+tab"}, "shift+tab", "pane back"),
		Up:         b([]string{"up", "k"}, "↑/k", "up"),
		Down:       b([]string{"down", "j"}, "↓/j", "down"),
		Left:       b([]string{"left"}, "←", "left"),
		Right:      b([]string{"right"}, "→", "right"),
		PgUp:       b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PgDown:     b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:        b([]string{"home", "g"}, "g", "top"),
		Bottom:     b([]string{"end", "G"}, "G", "bottom"),
		Enter:      b([]string{"enter"}, "enter", "detail"),
		Filter:     b([]string{"/"}, "/", "filter"),
		Log:        b([]string{"l"}, "l", "log"),
		Runs:       b([]string{"h"}, "h", "runs"),
		Diff:       b([]string{"d"}, "d", "diff"),
		Ranks:      b([]string{"R"}, "R", "ranks"),
		Timeline:   b([]string{"t"}, "t", "timeline"),
		Next:       b([]string{"n"}, "n", "next step"),
		Stop:       b([]string{"x"}, "x", "stop run"),
		Help:       b([]string{"?"}, "?", "help"),
		Quit:       b([]string{"q", "ctrl+c"}, "q", "quit"),
		Back:       b([]string{"esc"}, "esc", "back"),
		Stacks:     b([]string{"s"}, "s", "dump stacks"),
		Cancel:     b([]string{"c"}, "c", "cancel run"),
		Wait:       b([]string{"w"}, "w", "keep waiting"),
		Follow:     b([]string{"F"}, "F", "follow"),
		NextMatch:  b([]string{"n"}, "n", "next match"),
		PrevMatch:  b([]string{"N"}, "N", "previous match"),
		RankFilter: b([]string{"f"}, "f", "rank filter"),
		Jump:       b([]string{"l"}, "l", "jump to log"),
		Mark:       b([]string{"space"}, "space", "mark for diff"),
		Note:       b([]string{"N"}, "N", "note on run"),
		Yes:        b([]string{"y", "enter"}, "y", "yes"),
		No:         b([]string{"n", "esc"}, "n", "no"),
	}
}

// shortHelp is the footer line of a screen; opened logs have no run keys.
func (k keyMap) shortHelp(s screen, open bool) []key.Binding {
	all := k.screenHelp(s)
	if !open {
		return all
	}
	var out []key.Binding
	for _, b := range all {
		if b.Help().Key != k.Rerun.Help().Key && b.Help().Key != k.Toggle.Help().Key && b.Help().Key != k.Preset.Help().Key {
			out = append(out, b)
		}
	}
	return out
}

func (k keyMap) screenHelp(s screen) []key.Binding {
	switch s {
	case screenDetail:
		return []key.Binding{k.Up, k.Down, k.Jump, k.Back, k.Help, k.Quit}
	case screenLog:
		return []key.Binding{k.Filter, k.NextMatch, k.PrevMatch, k.Follow, k.RankFilter, withHelp(k.Right, "←/→", "scroll"),
			k.Back, k.Help, k.Quit}
	case screenRuns:
		return []key.Binding{k.Up, k.Down, withHelp(k.Enter, "enter", "show"), k.Note, k.Mark, k.Diff, k.Back, k.Quit}
	case screenDiff, screenRanks, screenTimeline, screenHelp:
		return []key.Binding{k.Up, k.Down, k.Back, k.Help, k.Quit}
	case screenGuide:
		return []key.Binding{k.Up, k.Down, withHelp(k.Enter, "enter", "run step"), k.Back, k.Quit}
	}
	return []key.Binding{k.Rerun, k.Toggle, k.Preset, k.Tab, k.Enter, k.Filter, k.Log, k.Runs, k.Diff, k.Ranks,
		k.Timeline, k.Next, k.Help, k.Quit}
}

// fullHelp is the `?` screen: every key, grouped.
func (k keyMap) fullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PgUp, k.PgDown, k.Top, k.Bottom, k.Tab, k.BackTab, k.Enter, k.Back},
		{k.Rerun, k.Preset, k.Toggle, k.Left, k.Right, k.Next, k.Stop, k.Filter},
		{k.Log, k.Runs, k.Diff, k.Ranks, k.Timeline, k.Help, k.Quit},
		{k.Stacks, k.Cancel, k.Wait, k.Follow, k.NextMatch, k.PrevMatch, k.RankFilter, k.Jump, k.Mark, k.Note},
	}
}

func withHelp(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}
