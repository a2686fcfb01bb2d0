package findings

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// gpuFindings: one finding per cause of non-cudagraphable partitions (reason and site) and per cause of
// CUDA-graph re-recording.
func GpuFindings(rep *report.Report, snap *report.DetailSnap, set *playbooks.Set, rw func([]int) string) []Finding {
	var out []Finding
	for _, p := range rep.CudagraphPartitions {
		out = append(out, partitionFinding(p, snap, set, rw))
	}
	for _, r := range rep.CudagraphRerecords {
		out = append(out, rerecordFinding(r, snap, set, rw))
	}
	for _, w := range rep.GPUWarnings {
		out = append(out, warningFinding(w, set, rw))
	}
	return out
}

func warningFinding(w *report.WarningSummary, set *playbooks.Set, rw func([]int) string) Finding {
	f := Finding{Kind: KindGPUWarning, Records: w.Records, Ranks: w.Ranks, Evidence: w.Evidence,
		What: strings.ReplaceAll(w.Topic, "_", " "), RankStats: ranksFromEvidence(w.Ranks, w.Evidence, w.Records)}
	ApplyPlaybook(&f, MatchPlaybook(set, playbooks.Query{Kind: KindGPUWarning, Reason: w.Message}))
	f.ID = "gpu_warning:" + w.Topic
	f.Key = f.ID
	f.Title = text.OneLine(w.Message, text.TitleMax)
	if w.Sizes > 0 {
		// torch warns once, when the count first passes its limit: the number is a floor (gpu-cuda-graphs-2.11.md §4)
		f.Title = fmt.Sprintf("CUDA graphs record a new graph for each distinct input size: at least %d distinct input sizes", w.Sizes)
	}
	f.Detail = fmt.Sprintf("%s\nPrinted %s · %s", w.Message, report.Plural(w.Records, "time"), rw(w.Ranks))
	return f
}

func partitionFinding(p *report.PartitionSummary, snap *report.DetailSnap, set *playbooks.Set, rw func([]int) string) Finding {
	reason := p.Reason
	if reason == "" {
		reason = "reason not logged"
	}
	f := Finding{Kind: KindCudagraphPartition, Records: p.Partitions, Ranks: p.Ranks, Evidence: p.Evidence,
		CompileIDs: p.CompileIDs, File: p.File, Line: p.Line, Function: p.Function, What: text.OneLine(reason, 40)}
	q := fmt.Sprintf("reason=%s op=%s ir=%s fx=%s", p.Reason, p.Op, p.IR, p.FX)
	ApplyPlaybook(&f, MatchPlaybook(set, playbooks.Query{Kind: KindCudagraphPartition, Reason: q}))
	f.ID = "cudagraph_partition:" + digits.ReplaceAllString(normalizeText(reason, 80), "N")
	if p.File != "" {
		f.ID += "@" + text.Site(p.File, p.Line)
	}
	f.Key = f.ID
	if snap != nil {
		f.RankStats = snap.Partitions[p]
	}
	if f.RankStats == nil {
		f.RankStats = ranksFromEvidence(p.Ranks, p.Evidence, p.Records)
	}
	where := ""
	if p.File != "" {
		where = " at " + text.Site(p.File, p.Line)
	}
	outside := "part of every call runs outside the CUDA graph"
	if p.WholeGraphs == p.Records { // no partition of these graphs was cudagraphable
		outside = "the whole graph runs without CUDA graphs"
	}
	f.Title = fmt.Sprintf("CUDA graphs leave out %s%s: %s", reason, where, outside)
	var d strings.Builder
	fmt.Fprintf(&d, "Reason: %s\nNon-cudagraphable partitions: %d in %s · %s", reason, p.Partitions, report.Plural(p.Records, "compile"), rw(p.Ranks))
	if p.Op != "" {
		fmt.Fprintf(&d, "\nOp: %s", p.Op)
		if p.FX != "" {
			fmt.Fprintf(&d, " (%s)", p.FX)
		}
	}
	if p.File != "" {
		fmt.Fprintf(&d, "\nYour code: %s:%d %s", p.File, p.Line, p.Function)
	}
	if p.WholeGraphs == p.Records {
		d.WriteString("\nNo partition of the graph was cudagraphable: the whole graph runs as ordinary kernel launches on every call.")
	} else {
		d.WriteString("\nInductor split the graph around these ops (graph partitions, 2.9+) instead of skipping CUDA graphs " +
			"for the whole graph: the partition runs as ordinary kernel launches on every call.")
	}
	f.Detail = d.String()
	return f
}

func rerecordFinding(r *report.RerecordSummary, snap *report.DetailSnap, set *playbooks.Set, rw func([]int) string) Finding {
	// Records: the re-recordings; where the input lacks the Recording lines (and shows none), the failed checks,
	// which the title then names as such
	n := r.Rerecords
	if r.Unknown && n == 0 {
		n = r.Records
	}
	f := Finding{Kind: KindCudagraphRerecord, Records: n, Ranks: r.Ranks, Evidence: r.Evidence,
		Function: r.Function, What: text.OneLine(r.Reason, 40), unexpected: r.Rerecords}
	q := r.Reason
	if len(r.Inputs) > 0 {
		q += " (input " + strings.Join(r.Inputs, ", ") + ")"
	}
	ApplyPlaybook(&f, MatchPlaybook(set, playbooks.Query{Kind: KindCudagraphRerecord, Reason: q}))
	f.ID = "cudagraph_rerecord:" + r.Function + ":" + normalizeText(r.Reason, 80)
	f.Key = f.ID
	if snap != nil {
		f.RankStats = snap.Rerecords[r]
	}
	if f.RankStats == nil {
		f.RankStats = ranksFromEvidence(r.Ranks, r.Evidence, n)
	}
	f.addCompileIDs(r.Evidence)
	f.Title = rerecordTitle(r)
	var d strings.Builder
	fmt.Fprintf(&d, "Function: %s\nReason: %s\n", r.Function, r.Reason)
	switch {
	case r.Unknown:
		fmt.Fprintf(&d, "Re-recordings: not known (the input has no Recording line of the function; %d shown) · %s", r.Rerecords, rw(r.Ranks))
	default:
		fmt.Fprintf(&d, "Re-recordings: %d · %s", r.Rerecords, rw(r.Ranks))
	}
	fmt.Fprintf(&d, "\nFailed checks: %s (\"Re-recording\" lines: on each call CUDA-graph trees check every "+
		"earlier recording of the function and log each one that does not match)", report.Plural(r.Records, "failed check"))
	if len(r.Inputs) > 0 {
		fmt.Fprintf(&d, "\nInputs whose data pointer changed: %s", strings.Join(r.Inputs, ", "))
	}
	d.WriteString("\nEach re-recording is one more capture of the function's CUDA graph: a \"Recording function=\" line " +
		"with a new cuda_graph_id.")
	f.Detail = d.String()
	return f
}

// rerecordTitle words a re-record cause by what the input shows: the re-recordings, or only failed checks.
func rerecordTitle(r *report.RerecordSummary) string {
	why := text.OneLine(r.Reason, text.TitleMax)
	switch {
	case r.Unknown:
		return fmt.Sprintf("CUDA graph of %s did not match a call %s: %s (no Recording lines: how many times it was recorded again is not known)",
			r.Function, report.Plural(r.Records, "time"), why)
	case r.Rerecords == 0:
		return fmt.Sprintf("CUDA graph of %s did not match a call %s and was not recorded again: %s", r.Function, report.Plural(r.Records, "time"), why)
	}
	return fmt.Sprintf("CUDA graph of %s recorded again %s: %s", r.Function, report.Plural(r.Rerecords, "time"), why)
}
