package tui

import (
	"strconv"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// How the lists, the detail, the diff and the ranks view name finding kinds.

// kindOrder is the order of the kinds in the left list's title.
var kindOrder = []findings.Kind{findings.KindHang, findings.KindCompileError, findings.KindRuntimeError, findings.KindCompileAfterWarmup, findings.KindCudagraphSkip,
	findings.KindCudagraphPartition, findings.KindCudagraphRerecord, findings.KindGPUWarning, findings.KindCacheMiss,
	findings.KindCompileTime, findings.KindRankDisagreement, findings.KindConfigParity, findings.KindProbeMismatch, report.KindDDPSplit}

// kindTags are the 5-cell tags of the list rows by kind (limit hits and by-design findings have their own).
var kindTags = map[findings.Kind]string{
	findings.KindHang: "WAIT", findings.KindCompileError: "ERROR", findings.KindRuntimeError: "CRASH", findings.KindRankDisagreement: "RANKS",
	findings.KindConfigParity: "CONF", findings.KindProbeMismatch: "PROBE", findings.KindCudagraphSkip: "CG",
	findings.KindCudagraphPartition: "CG", findings.KindCudagraphRerecord: "CG", findings.KindGPUWarning: "GPU",
	findings.KindCacheMiss: "CACHE", findings.KindCompileTime: "TIME", report.KindDDPSplit: "DDP",
	findings.KindCompileAfterWarmup: "WARM",
}

// kindWord names a finding kind in words (playbooks' table of kind words).
func kindWord(k findings.Kind) string { return playbooks.WordsOf(k).One }

// kindCount is "1 runtime error", "3 cache misses".
func kindCount(k findings.Kind, n int) string {
	if !playbooks.HasWords(k) {
		return plural(n, kindWord(k))
	}
	if w := playbooks.WordsOf(k); n != 1 {
		return strconv.Itoa(n) + " " + w.Many
	}
	return "1 " + kindWord(k)
}

// leftTitle names the left list by what it holds: "Graph breaks" while it holds only breaks (parts is empty
// then), "Breaks & errors" with compile or runtime errors, else "Breaks & more"; parts count the
// other kinds ("2 runtime errors", "10 CUDA-graph re-records"): as the report counts them (c) where it does,
// else by rows (findings). floors: the run did not complete (Analysis.CountsAreFloors), so a kind the report
// counts is counted up to where it stopped ("≥1 runtime error", as the report's counts line); the other kinds
// are findings, not counts.
func leftTitle(rows []*row, c report.Counts, floors bool) (head string, parts []string) {
	n, caught := map[findings.Kind]int{}, 0
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
		case k == findings.KindCompileError || k == findings.KindRuntimeError:
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
func reportCount(k findings.Kind, c report.Counts, rows int) int {
	if n := reportCounts(c)[k]; n > 0 {
		return n
	}
	return rows
}

// reportCounts are the report's counts of the kinds it counts (Counts), by kind.
func reportCounts(c report.Counts) map[findings.Kind]int {
	return map[findings.Kind]int{findings.KindCompileError: c.CompileErrors, findings.KindRuntimeError: c.RuntimeErrors,
		findings.KindCudagraphSkip: c.CudagraphSkips, findings.KindCudagraphPartition: c.CudagraphPartitions,
		findings.KindCudagraphRerecord: c.CudagraphRerecords}
}

// floorIf is count as a floor ("≥1 runtime error", triage.Floor) where floors.
func floorIf(floors bool, count string) string {
	if floors {
		return report.Floor(count)
	}
	return count
}
