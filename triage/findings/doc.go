// Package findings turns a report (triage/report) and the playbooks into findings: one per distinct graph
// break, recompile cause, limit hit, CUDA-graph skip or partition, compile or runtime error, compile-time and
// cache problem, each with its severity, its evidence (rank, compile id, site) and the playbook that says what
// to do. Finding is the type every rendering, the gate and diff read; playbook matching lives in match.go.
package findings
