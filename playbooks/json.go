package playbooks

import (
	"encoding/json"
	"io"
	"regexp"
)

// jsonMatch is what a playbook matches, as JSON lists it.
type jsonMatch struct {
	Kinds   []string `json:"kinds"`
	GBIDs   []string `json:"gb_ids"`
	GBTypes []string `json:"gb_types"`
	Reasons []string `json:"reasons"`
	Guards  []string `json:"guards"`
	Errors  []string `json:"errors"`
}

// jsonPlaybook is one playbook as JSON lists it.
type jsonPlaybook struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Severity string    `json:"severity"`
	Category string    `json:"category"`
	Match    jsonMatch `json:"match"`
	// Source: "builtin", "registry" (made from PyTorch's graph-break registry) or the user playbook's file.
	Source string `json:"source"`
}

// WriteJSON writes playbooks as `torchtriage playbooks --format json` lists them: id, title, severity, category,
// what they match and where they come from.
func WriteJSON(w io.Writer, list []*Playbook) error {
	out := make([]jsonPlaybook, 0, len(list))
	for _, p := range list {
		m := p.Match
		out = append(out, jsonPlaybook{
			ID: p.ID, Title: p.Title, Severity: p.Severity, Category: p.Category, Source: p.Source,
			Match: jsonMatch{
				Kinds: KindStrings(m.Kinds), GBIDs: nonNil(m.GBIDs), GBTypes: nonNil(m.GBTypes),
				Reasons: patterns(m.Reasons), Guards: nonNil(m.Guards), Errors: patterns(m.Errors),
			},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// nonNil is s, or an empty list (JSON [] rather than null).
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// patterns are the regular expressions' sources.
func patterns(res []*regexp.Regexp) []string {
	out := make([]string, 0, len(res))
	for _, re := range res {
		out = append(out, re.String())
	}
	return out
}
