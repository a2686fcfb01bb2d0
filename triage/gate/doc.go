// Package gate is `torchtriage check`'s policy: the rules (at most N graph breaks, recompiles, limit hits,
// CUDA-graph skips, compile time, rank agreement), the baseline file and its comparison, the pass / fail /
// no-evidence / did-not-complete outcome with check's exit status (Run: from the inputs' analysis to the printed
// result, what stderr says of a run that did not complete, and the Outcome), and the result's text, GitHub
// annotation and JUnit forms.
package gate
