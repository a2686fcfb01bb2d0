// Package report turns records (from logparse) into the counts contract: the Aggregator folds records in one
// pass into a Report — the nine counts, per rank, the distinct breaks and recompile groups with their samples,
// compile time and caches, GPU (CUDA-graph) summaries, errors and the first failure — and ReportEvidence, what
// the inputs could show (which TORCH_LOGS were on, torch seen, ranks, cut input). Load is the one loader of log
// files, directories, TORCH_TRACE dirs and stdin. RunFacts are what a stored run adds (outcome, probe files).
// What findings need beyond the counts (each group's recompile details, DDP splits, stack logs) is exported
// here as typed snapshots (GroupSnap, DetailSnap); nothing in this package decides a finding or a verdict.
package report
