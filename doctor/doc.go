// Package doctor is `torchtriage doctor`: the check of this box before a first run. It runs the python that
// `torchtriage run` would use once (the probe's doctor script: torch, its CUDA build and GPU, the TORCH_LOGS names
// it accepts, Inductor's C++ compiler and caches), looks at what Go sees of the host (the NVIDIA driver, torchrun,
// srun and tmux on PATH, the file systems of the caches and the run store, the regression-prone compile knobs,
// the terminal) and says each as a line of ✓, ⚠ or ✗ with its fix, or as one JSON document. Package cli wires
// the command's flags into Options and Run; this package imports neither cli nor tui.
package doctor
