package playbooks

import (
	"fmt"
	"io"
	"strings"

	"github.com/torchtriage/torchtriage/triage/text"
)

// WriteList writes found as `torchtriage playbooks` lists them: a table of id, severity, category and title, and,
// for the whole list (no query), a line saying how to search the registry playbooks it leaves out.
func WriteList(out io.Writer, o text.Options, found []*Playbook, whole bool) {
	rows := make([][]string, 0, len(found))
	for _, p := range found {
		rows = append(rows, []string{p.ID, p.Severity, p.Category, p.Title})
	}
	w := text.NewWriter(out, o)
	w.Table([]text.Column{{Header: "ID"}, {Header: "SEVERITY"}, {Header: "CATEGORY"}, {Header: "TITLE", Wrap: true}}, rows)
	if whole {
		w.Blank()
		w.Line(0, fmt.Sprintf("and %d registry playbooks, one per graph-break id of PyTorch %s (gb-registry-NNNN): "+
			"search them by GB id or gb_type words, e.g. torchtriage playbooks GB0014.", RegistryLen(), RegistryTorch))
	}
}

// WriteAlso writes, under the playbook `explain` showed for graph-break id gb, the other playbooks that list gb
// and, when the one shown is not the registry's, how to see PyTorch's own words for it.
func WriteAlso(out io.Writer, o text.Options, set *Set, shown *Playbook, gb string) {
	var others []string
	var own *Playbook // the registry's, when another one is shown
	for _, p := range set.ByGBID(gb) {
		switch {
		case p == shown:
		case p.FromRegistry():
			own = p
		default:
			others = append(others, p.ID)
		}
	}
	w := text.NewWriter(out, o)
	if len(others) > 0 || own != nil {
		w.Blank()
	}
	if len(others) > 0 {
		w.Line(2, fmt.Sprintf("Also listing %s: %s", gb, strings.Join(others, ", ")))
	}
	if own != nil {
		w.Line(2, fmt.Sprintf("PyTorch's own words for %s: torchtriage explain %s", gb, own.ID))
	}
}
