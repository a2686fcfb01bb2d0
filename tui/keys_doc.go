package tui

import "strings"

// KeyGroup is one group of the `?` help: a scope's title and its bindings, in the key table's order.
type KeyGroup struct {
	Title string
	Keys  []KeyHelp
}

// KeyHelp is one binding of the key table as the `?` help shows it.
type KeyHelp struct {
	Keys   []string // the key presses it answers to, as bubbletea names them ("up", "k")
	Help   string   // the keys as the help writes them ("↑/k")
	Desc   string   // what it does ("up")
	Launch bool     // about launching runs: left out where logs were opened (torchtriage open)
}

// Keys is the key table as the `?` help of a session that launches runs shows it (run, demo): every scope's
// group in the help's order, and the help's closing notes. It reads the same table as dispatch, the footer and
// the help, so docs/keys.md, generated from it (internal/gendocs), cannot drift from the keys.
func Keys() (groups []KeyGroup, notes string) {
	k := newKeyMap()
	for s := range numScopes {
		var g KeyGroup
		for i := range k {
			b := &k[i]
			if !b.worksIn(s) {
				continue
			}
			g.Keys = append(g.Keys, KeyHelp{Keys: b.Keys(), Help: b.Help().Key, Desc: b.Help().Desc, Launch: b.launch})
		}
		if len(g.Keys) > 0 {
			g.Title = scopeTitles[s]
			groups = append(groups, g)
		}
	}
	return groups, strings.TrimSpace(helpNotes + helpRunNotes)
}
