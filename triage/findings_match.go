package triage

import (
	"github.com/torchtriage/torchtriage/playbooks"
)

// matchPlaybook asks the set (which remembers its answers) for the playbook of a query.
func matchPlaybook(set *playbooks.Set, q playbooks.Query) playbooks.Result {
	if set == nil {
		return playbooks.Result{}
	}
	return set.Match(q)
}

// applyPlaybook sets the finding's playbook, related playbooks, and the severity and category the playbook
// gives (a finding already marked expected stays expected).
func applyPlaybook(f *Finding, r playbooks.Result) {
	f.Related = []string{}
	if r.Primary == nil {
		if f.Severity == "" {
			f.Severity = "medium"
		}
		if f.Category == "" {
			f.Category = CategoryFix
		}
		return
	}
	f.Playbook = r.Primary.ID
	f.Related = r.RelatedIDs
	if f.Severity == "" {
		f.Severity = r.Primary.Severity
	}
	if f.Category == "" {
		f.Category = r.Primary.Category
	}
	if r.Primary.Expected() {
		f.Expected = true
	}
	if f.Expected {
		f.Category, f.Severity = CategoryExpected, "info"
	}
}
