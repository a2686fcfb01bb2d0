// Package triage turns parsed records into decisions: findings (graph breaks,
// recompiles, limit hits, CUDA-graph skips, compile errors), rank agreement,
// the verdict and the next checklist step, the CI gate and the diff between
// two runs. Its sub-packages launch and store the repro (runner), read the
// in-process probe (probe) and replay recorded runs (demo).
package triage
