package tui

import (
	"cmp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// scope is where a binding works: a screen, a group of screens or an overlay. The `?` help is grouped by scope,
// and a key means at most one thing among the scopes that are active together (keys_test.go checks it).
type scope int

const (
	scopeEverywhere scope = iota // every screen (not the picker, the input line or a question)
	scopeLists                   // the main screen: the two lists and the preset bar
	scopeMove                    // every list, the log, runs, the checklist, the picker and the text screens
	scopeBack                    // every screen but the main one
	scopeDetail
	scopeLog
	scopeRuns
	scopeGuide
	scopePicker
	scopeInput
	scopePrompt
	scopeStall  // the stall banner, on any screen
	scopeLadder // the backend ladder while it runs: it takes every key
	numScopes
)

// scopeTitles head the groups of the help screen, in this order.
var scopeTitles = [numScopes]string{"Everywhere", "Lists (main screen)", "Move (all but detail)", "Sub-screens",
	"Detail", "Log", "Runs", "Checklist", "Preset picker", "Input line", "Question", "Stall banner",
	"Backend ladder (while it runs)"}

// binding is one row of the key table: the keys and their help (bubbles/key), the scopes it works in, the
// footers that show it and what it does. The table's order is the footers' order.
type binding struct {
	key.Binding
	scopes []scope
	foot   []scope // the footers (by the state's first scope) that show it while there is room
	end    bool    // always shown, at the end of every footer where it works
	launch bool    // about launching: left out of the footer of opened logs
	short  string  // the help's shorter word where a line has little room (the stall banner); "": the help's own
	do     func(m *Model) tea.Cmd
}

// keyMap is the one key table: dispatch, the footer and the `?` help all read it.
type keyMap []binding

func bind(s scope, keys, help, desc string, do func(m *Model) tea.Cmd) binding {
	return binding{Binding: key.NewBinding(key.WithKeys(strings.Fields(keys)...), key.WithHelp(help, desc)),
		scopes: []scope{s}, do: do}
}

// in adds scopes the binding also works in.
func (b binding) in(s ...scope) binding {
	b.scopes = append(slices.Clone(b.scopes), s...)
	return b
}

// footer names the footers that show the binding.
func (b binding) footer(s ...scope) binding {
	b.foot = s
	return b
}

func (b binding) atEnd() binding {
	b.end = true
	return b
}

// brief gives the binding a shorter help word for narrow lines ("stacks" for "dump stacks").
func (b binding) brief(word string) binding {
	b.short = word
	return b
}

func (b binding) launching() binding {
	b.launch = true
	return b
}

// worksIn reports whether the binding works in any of the scopes.
func (b *binding) worksIn(scopes ...scope) bool {
	for _, s := range scopes {
		if slices.Contains(b.scopes, s) {
			return true
		}
	}
	return false
}

// lookup finds the binding a key press means in the active scopes, nil when none.
func (k keyMap) lookup(scopes []scope, msg tea.KeyPressMsg) *binding {
	for _, s := range scopes {
		for i := range k {
			if slices.Contains(k[i].scopes, s) && key.Matches(msg, k[i].Binding) {
				return &k[i]
			}
		}
	}
	return nil
}

// scopes are the scopes active in the model's state, its own first: a question, the input line and the picker
// take every key; otherwise the screen's scope, the stall banner's, then the ones shared with other screens.
func (m *Model) scopes() []scope {
	switch {
	case m.prompt != nil:
		return []scope{scopePrompt}
	case m.lad != nil:
		return []scope{scopeLadder}
	case m.typing:
		return []scope{scopeInput}
	case m.pre.picking:
		return []scope{scopePicker, scopeMove}
	}
	return screenScopes(m.screen, m.stallBanner())
}

func screenScopes(s screen, stall bool) []scope {
	var own []scope
	switch s {
	case screenMain:
		own = []scope{scopeLists, scopeMove}
	case screenDetail:
		own = []scope{scopeDetail}
	case screenLog:
		own = []scope{scopeLog, scopeMove}
	case screenRuns:
		own = []scope{scopeRuns, scopeMove}
	case screenGuide:
		own = []scope{scopeGuide, scopeMove}
	default: // diff, ranks, timeline, help: text that scrolls
		own = []scope{scopeMove}
	}
	out := own[:1:1]
	if stall {
		out = append(out, scopeStall)
	}
	out = append(out, own[1:]...)
	if s != screenMain {
		out = append(out, scopeBack)
	}
	return append(out, scopeEverywhere)
}

// footer is what the footer line lists: the bindings its footer shows (while there is room), then the ones
// always shown at the end.
func (m *Model) footer() (head, tail []key.Binding) {
	active := m.scopes()
	for i := range m.keys {
		b := &m.keys[i]
		switch {
		case !b.worksIn(active...):
		case b.end:
			tail = append(tail, b.Binding)
		case b.launch && m.opt.mode == modeOpen:
		case slices.Contains(b.foot, active[0]):
			head = append(head, b.Binding)
		}
	}
	return head, tail
}

// scopeHelp lists the bindings of a scope, in table order; opened leaves out those about launching runs.
func (k keyMap) scopeHelp(s scope, opened bool) []key.Binding {
	var out []key.Binding
	for i := range k {
		if slices.Contains(k[i].scopes, s) && !(opened && k[i].launch) {
			out = append(out, k[i].Binding)
		}
	}
	return out
}

// keysTexts are a scope's bindings as one line, longest first: with the help's words ("s dump stacks · c/x
// cancel run · w keep waiting"), with the short words ("s stacks · c/x cancel · w wait"), the keys alone ("s ·
// c/x · w"). Every form is read from the table, so a key rebound there is rebound on each.
func (k keyMap) keysTexts(s scope) [3]string {
	var full, short, bare []string
	for i := range k {
		b := &k[i]
		if !slices.Contains(b.scopes, s) {
			continue
		}
		h := b.Help()
		word := cmp.Or(b.short, h.Desc)
		full, short, bare = append(full, h.Key+" "+h.Desc), append(short, h.Key+" "+word), append(bare, h.Key)
	}
	return [3]string{strings.Join(full, " · "), strings.Join(short, " · "), strings.Join(bare, " · ")}
}
