package tui

import (
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"

	"github.com/torchtriage/torchtriage/triage"
)

// How the lists, the detail, the diff and the ranks view name finding kinds.

// kindNames are each kind's name, singular and plural.
var kindNames = map[triage.Kind][2]string{
	triage.KindGraphBreak:         {"graph break", "graph breaks"},
	triage.KindRecompile:          {"recompile", "recompiles"},
	triage.KindLimitHit:           {"limit hit", "limit hits"},
	triage.KindCudagraphSkip:      {"CUDA-graph skip", "CUDA-graph skips"},
	triage.KindCompileError:       {"compile error", "compile errors"},
	triage.KindRuntimeError:       {"runtime error", "runtime errors"},
	triage.KindCudagraphPartition: {"CUDA-graph partition", "CUDA-graph partitions"},
	triage.KindCudagraphRerecord:  {"CUDA-graph re-record", "CUDA-graph re-records"},
	triage.KindGPUWarning:         {"GPU warning", "GPU warnings"},
	triage.KindCacheMiss:          {"cache miss", "cache misses"},
	triage.KindCompileTime:        {"compile time", "compile-time findings"},
	triage.KindRankDisagreement:   {"rank disagreement", "rank disagreements"},
	triage.KindConfigParity:       {"config parity", "setting differences"},
	triage.KindProbeMismatch:      {"probe mismatch", "probe mismatches"},
	report.KindDDPSplit:           {"DDPOptimizer split", "DDPOptimizer splits"},
}

// kindOrder is the order of the kinds in the left list's title.
var kindOrder = []triage.Kind{triage.KindCompileError, triage.KindRuntimeError, triage.KindCudagraphSkip,
	triage.KindCudagraphPartition, triage.KindCudagraphRerecord, triage.KindGPUWarning, triage.KindCacheMiss,
	triage.KindCompileTime, triage.KindRankDisagreement, triage.KindConfigParity, triage.KindProbeMismatch, report.KindDDPSplit}

// kindTags are the 5-cell tags of the list rows by kind (limit hits and by-design findings have their own).
var kindTags = map[triage.Kind]string{
	triage.KindCompileError: "ERROR", triage.KindRuntimeError: "CRASH", triage.KindRankDisagreement: "RANKS",
	triage.KindConfigParity: "CONF", triage.KindProbeMismatch: "PROBE", triage.KindCudagraphSkip: "CG",
	triage.KindCudagraphPartition: "CG", triage.KindCudagraphRerecord: "CG", triage.KindGPUWarning: "GPU",
	triage.KindCacheMiss: "CACHE", triage.KindCompileTime: "TIME", report.KindDDPSplit: "DDP",
}

// kindWord names a finding kind in words.
func kindWord(k triage.Kind) string {
	if n, ok := kindNames[k]; ok {
		return n[0]
	}
	return strings.ReplaceAll(string(k), "_", " ")
}

// kindCount is "1 runtime error", "3 cache misses".
func kindCount(k triage.Kind, n int) string {
	name, ok := kindNames[k]
	if !ok {
		return plural(n, kindWord(k))
	}
	if n == 1 {
		return "1 " + name[0]
	}
	return strconv.Itoa(n) + " " + name[1]
}

// leftTitle names the left list by what it holds: "Graph breaks" while it holds only breaks (parts is empty
// then), "Breaks & errors" with compile or runtime errors, else "Breaks & more"; parts count the
// other kinds ("2 runtime errors", "10 CUDA-graph re-records"): as the report counts them (c) where it does,
// else by rows (findings). floors: the run did not complete (Analysis.CountsAreFloors), so a kind the report
// counts is counted up to where it stopped ("≥1 runtime error", as the report's counts line); the other kinds
// are findings, not counts.
func leftTitle(rows []*row, c report.Counts, floors bool) (head string, parts []string) {
	n, caught := map[triage.Kind]int{}, 0
	for _, r := range rows {
		if r.caught { // the report counts no compile error of it: no process died
			caught++
			continue
		}
		n[r.kind]++
	}
	if caught > 0 {
		head, parts = "Breaks & errors", []string{floorIf(floors, plural(caught, "caught compile error"))}
	}
	if head == "" {
		head = "Graph breaks"
	}
	for _, k := range kindOrder {
		if n[k] == 0 {
			continue
		}
		part := kindCount(k, reportCount(k, c, n[k]))
		if _, counted := reportCounts(c)[k]; counted {
			part = floorIf(floors, part)
		}
		parts = append(parts, part)
		switch {
		case k == triage.KindCompileError || k == triage.KindRuntimeError:
			if head == "Graph breaks" {
				head = "Breaks & errors"
			}
		default:
			head = "Breaks & more"
		}
	}
	return head, parts
}

// reportCount is how many of kind k the report counts (Counts: runtime errors are dying processes, re-records
// every re-recording), or rows for the kinds it does not count.
func reportCount(k triage.Kind, c report.Counts, rows int) int {
	if n := reportCounts(c)[k]; n > 0 {
		return n
	}
	return rows
}

// reportCounts are the report's counts of the kinds it counts (Counts), by kind.
func reportCounts(c report.Counts) map[triage.Kind]int {
	return map[triage.Kind]int{triage.KindCompileError: c.CompileErrors, triage.KindRuntimeError: c.RuntimeErrors,
		triage.KindCudagraphSkip: c.CudagraphSkips, triage.KindCudagraphPartition: c.CudagraphPartitions,
		triage.KindCudagraphRerecord: c.CudagraphRerecords}
}

// floorIf is count as a floor ("≥1 runtime error", triage.Floor) where floors.
func floorIf(floors bool, count string) string {
	if floors {
		return report.Floor(count)
	}
	return count
}
