// Package ladder is the backend ladder: it runs a repro once per torch.compile backend, eager → aot_eager →
// aot_eager_decomp_partition → inductor (the probe forces the backend: no code change), each a stored run of one
// experiment, stops at the first tier that fails and says what failed there: ok, a compile error, a runtime error,
// a wrong result (PyTorch's accuracy check, --check-accuracy), a hang, or a non-zero exit without an error torch
// printed. On the failing tier it can run PyTorch's minifier (the launcher torch writes, run as torch says) and its
// compiler bisector (with a cache directory of its own: it deletes it), and reads their verdicts (logparse's
// ScanTools). Runs are launched through triage/session; what a run means is triage's analysis.
package ladder
