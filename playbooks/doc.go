// Package playbooks is the embedded knowledge base: one Markdown playbook per
// known cause (why it happens, what to do, how to verify, sources), a matcher
// that picks the most specific playbook for a finding, user overrides from
// $XDG_CONFIG_HOME/torchtriage/playbooks, and the diagnose-compile-regression
// checklist. It also holds the `playbooks` and `explain` subcommands.
//
// Files: playbook.go (types, sections), parse.go (front matter), set.go
// (loading), match.go (Query -> Result), search.go, render.go, checklist.go,
// cli.go; the playbooks themselves are builtin/*.md.
package playbooks
