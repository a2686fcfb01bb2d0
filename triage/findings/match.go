package findings

import (
	"github.com/torchtriage/torchtriage/playbooks"
)

// matchPlaybook asks the set (which remembers its answers) for the playbook of a query.
func MatchPlaybook(set *playbooks.Set, q playbooks.Query) playbooks.Result {
	if set == nil {
		return playbooks.Result{}
	}
	return set.Match(q)
}

// applyPlaybook sets the finding's playbook, related playbooks, and the severity and category the playbook
// gives (a finding already marked expected stays expected).
func ApplyPlaybook(f *Finding, r playbooks.Result) {
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

// preferExpected makes the best by-design playbook that also matched the primary one, for a break at a site
// that is by design (DDP's wrapper, FSDP hooks): a generic cause such as "a method Dynamo could not inline"
// matches there too, but the site says why.
func preferExpected(r playbooks.Result) playbooks.Result {
	if r.Primary == nil || r.Primary.Expected() {
		return r
	}
	for i, p := range r.Related {
		if !p.Expected() {
			continue
		}
		out := playbooks.Result{Primary: p, Level: r.Level}
		out.Related = append(append([]*playbooks.Playbook{r.Primary}, r.Related[:i]...), r.Related[i+1:]...)
		for _, q := range out.Related {
			out.RelatedIDs = append(out.RelatedIDs, q.ID)
		}
		return out
	}
	return r
}
