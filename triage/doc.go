// Package triage turns parsed records into decisions: findings (graph breaks,
// recompiles, limit hits, CUDA-graph skips, compile errors), rank agreement,
// the verdict and the next checklist step, the CI gate, the diff between
// two runs, and the session's story (the bringup log, run by run). Its sub-packages launch and store the repro (runner), read the
// in-process probe (probe) and replay recorded runs (demo).
package triage
