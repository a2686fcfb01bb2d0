// Package playbooks is the embedded knowledge base: one Markdown playbook per known cause (why it happens, what
// to do, how to verify, sources), the finding kinds, a matcher that picks the most specific playbook for a
// finding (and remembers its answers per set), user overrides from $XDG_CONFIG_HOME/torchtriage/playbooks, and
// the diagnose-compile-regression checklist. It imports nothing of this module.
//
// Files: playbook.go (types, sections), parse.go (front matter), set.go (loading), match.go (Query -> Result),
// search.go, suggest.go, render.go, checklist.go (the six steps, State), checklist_first.go (the steps before the
// six, Why), checklist_progress.go (Progress, NextStep); the playbooks themselves are builtin/*.md.
package playbooks
