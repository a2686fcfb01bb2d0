// Package playbooks is the embedded knowledge base: one Markdown playbook per
// known cause (why it happens, what to do, how to verify, sources), a matcher
// that picks the most specific playbook for a finding, user overrides from
// $XDG_CONFIG_HOME/torchtriage/playbooks, and the diagnose-compile-regression
// checklist.
package playbooks
