// Package gate is `torchtriage check`'s policy: the rules (at most N graph breaks, recompiles, limit hits,
// CUDA-graph skips, compile time, rank agreement), the baseline file and its comparison, the pass / fail /
// no-evidence / did-not-complete outcome, and the result's text, GitHub annotation and JUnit forms.
package gate
