package story

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// Logged says which kinds a run printed while they could print, by the report's own evidence
// (triage.ReportEvidence, one rule for the report and the log): limit hits and fatal errors always print; breaks
// need graph_breaks or +dynamo, recompile records recompiles or recompiles_verbose, unless records of them show
// they printed anyway (a trace records every compile); CUDA-graph skips print under any
// TORCH_LOGS from 2.11, earlier they need perf_hints (or cudagraphs). A count of a kind that was not logged is 0
// and means nothing.
type Logged struct {
	// Torch: the run printed torch output (a torch log line, a compile record, a trace, a traceback through torch).
	// Without any, nothing was counted: its zeros mean nothing, and it is compared with no run.
	Torch          bool `json:"torch"`
	GraphBreaks    bool `json:"graph_breaks"`
	Recompiles     bool `json:"recompiles"`
	CudagraphSkips bool `json:"cudagraph_skips"`
	// CudagraphPartitions: non-cudagraphable partitions and re-recordings print only under TORCH_LOGS
	// cudagraphs, and not for a graph loaded from the FX graph cache
	CudagraphPartitions bool `json:"cudagraph_partitions"`
	// PartitionsHidden: TORCH_LOGS had cudagraphs, but graphs came from the FX graph cache, which prints none
	PartitionsHidden bool `json:"partitions_hidden,omitempty"`
	// PartitionsNotLogged: a GPU run without TORCH_LOGS cudagraphs (triage.Analysis.PartitionsNotLogged)
	PartitionsNotLogged bool `json:"partitions_not_logged,omitempty"`
}

// loggedBy says what a run logged: the report's evidence (its TORCH_LOGS, and the records that prove a kind was
// logged whatever it said: a trace) for breaks, recompiles and skips;
// partitions and re-recordings need TORCH_LOGS cudagraphs.
func loggedBy(m runs.Meta, ev report.ReportEvidence) Logged {
	names := report.LogNames(m.TorchLogs)
	return Logged{Torch: ev.TorchSeen, GraphBreaks: ev.GraphBreaksLogged, Recompiles: ev.RecompilesLogged,
		CudagraphSkips:      ev.CudagraphSkipsLogged, // the report's rule: TORCH_LOGS, torch version, skips seen
		CudagraphPartitions: slices.Contains(names, "all") || slices.Contains(names, "cudagraphs")}
}

func (c Logged) covers(kind findings.Kind) bool {
	if !c.Torch {
		return false
	}
	switch kind {
	case findings.KindGraphBreak:
		return c.GraphBreaks
	case findings.KindRecompile:
		return c.Recompiles
	case findings.KindCudagraphSkip:
		return c.CudagraphSkips
	case findings.KindCudagraphPartition, findings.KindCudagraphRerecord:
		return c.CudagraphPartitions
	}
	return true
}

// buildDelta compares run r with its base.
func buildDelta(base, r *Run, basis string) *Delta {
	d := &Delta{Base: base.ID, Basis: basis, Partial: !r.finished(), Fixed: []compare.DiffItem{}, New: []compare.DiffItem{},
		Changed: []compare.DiffItem{}, ByDesign: []compare.DiffItem{}, NotCompared: []string{}, MetricBefore: base.Metric}
	for _, it := range compare.Diff(base.an, r.an).Items {
		if !base.Logged.covers(it.Kind) || !r.Logged.covers(it.Kind) {
			continue
		}
		switch {
		case it.Change == compare.ChangeMoved:
			continue // the same item at other lines (an edit above it): neither fixed nor broken
		case it.Expected: // by design or automatic dynamic's first recompile (a warm PGO profile absorbs it): no fix
			d.ByDesign = append(d.ByDesign, it)
			continue
		}
		switch it.Change {
		case compare.ChangeGone:
			d.Fixed = append(d.Fixed, it)
		case compare.ChangeNew:
			d.New = append(d.New, it)
		default:
			d.Changed = append(d.Changed, it)
		}
	}
	for _, k := range []findings.Kind{findings.KindGraphBreak, findings.KindRecompile, findings.KindCudagraphSkip, findings.KindCudagraphPartition} {
		if k == findings.KindCudagraphSkip && base.Counts.CudagraphSkips+r.Counts.CudagraphSkips == 0 {
			continue // skips print by default only from 2.11 and the version is often unknown: note the gap only when a run saw some
		}
		if k == findings.KindCudagraphPartition && base.Counts.CudagraphPartitions+r.Counts.CudagraphPartitions == 0 {
			continue // only GPU runs have them: note the gap only when a run saw some
		}
		for _, x := range []*Run{base, r} {
			if !x.Logged.covers(k) {
				why := fmt.Sprintf("(TORCH_LOGS %q) did not log them", x.meta.TorchLogs)
				if !x.Logged.Torch {
					why = x.an.SilentWhy() // the program's silence, the tool's stop or a launch that failed
				} else if k == findings.KindCudagraphPartition && x.Logged.PartitionsHidden {
					why = triage.PartitionsFromCache
				}
				d.NotCompared = append(d.NotCompared, fmt.Sprintf("%s: run %d %s", playbooks.WordsOf(k).Items, x.ID, why))
				break
			}
		}
	}
	ba, ra := base.an.RankAgreement, r.an.RankAgreement
	comparable := base.Logged.GraphBreaks && base.Logged.Recompiles && r.Logged.GraphBreaks && r.Logged.Recompiles
	// a side whose ranks were not compared (a torchrun job that printed nothing shows no rank prefix, and no record
	// shows what each rank did) neither regained nor lost agreement: that side is "not compared", as its report says
	switch {
	case ba.Agree == ra.Agree && ba.Disagree() == ra.Disagree(): // agreeing, differing or not compared in both
	case !comparable:
		d.NotCompared = append(d.NotCompared, "rank agreement: a run did not log both graph breaks and recompiles")
	case ba.NotCompared != "" || ra.NotCompared != "": // one process, one rank, or ranks no record names
		x, why := base, ba.NotCompared
		if why == "" {
			x, why = r, ra.NotCompared
		}
		d.NotCompared = append(d.NotCompared, fmt.Sprintf("rank agreement: run %d: %s", x.ID, why))
	case ba.Disagree():
		d.Agreement, d.AgreementSummary, d.AgreementPlaybook = AgreementRegained, ba.Summary, disagreementPlaybook(base.an)
	default:
		d.Agreement, d.AgreementSummary, d.AgreementPlaybook = AgreementLost, ra.Summary, disagreementPlaybook(r.an)
	}
	return d
}

// Quiet words a delta with nothing fixed, new or changed, no change of rank agreement or metric and nothing left
// out of the comparison: "no change in graph breaks, recompile classes, limit hits, skips, errors or rank
// agreement" (without rank agreement for one process: ranks false), or, where by-design items differ (ByDesign),
// "no change to fix in …; by-design graph breaks differ (no fix, no regression):" with them listed after it; for a
// run that did not complete, "nothing new or more in …". The text and Markdown forms of the bringup log say it (the
// TUI's story view words an empty delta on its own: "no change").
func (d *Delta) Quiet(ranks bool) string {
	what := "graph breaks, recompile classes, limit hits, skips or errors"
	differ := d.byDesignKinds()
	switch {
	case d.Partial && differ != "": // what it never reached is not "no change" (triage.Diff leaves it out)
		return "nothing new or more to fix in " + what + "; what this run never reached is not compared; " + differ +
			" differ (no fix, no regression):"
	case d.Partial:
		return "nothing new or more in " + what + "; what this run never reached is not compared"
	case ranks:
		what = "graph breaks, recompile classes, limit hits, skips, errors or rank agreement"
	}
	switch {
	case differ != "":
		return "no change to fix in " + what + "; " + differ + " differ (no fix, no regression):"
	}
	return "no change in " + what
}

// byDesignKinds names the kinds of ByDesign: "by-design graph breaks", "expected recompiles", "by-design graph
// breaks and expected recompiles"; "" when there are none.
func (d *Delta) byDesignKinds() string {
	var kinds []findings.Kind
	for _, it := range d.ByDesign {
		if !slices.Contains(kinds, it.Kind) {
			kinds = append(kinds, it.Kind)
		}
	}
	var words []string
	for _, k := range kinds {
		switch k {
		case findings.KindRecompile:
			words = append(words, "expected recompiles")
		default:
			words = append(words, "by-design "+playbooks.WordsOf(k).Items)
		}
	}
	return playbooks.JoinAnd(words)
}

func disagreementPlaybook(a *triage.Analysis) string {
	for _, f := range a.Findings {
		if f.Kind == findings.KindRankDisagreement {
			return f.Playbook
		}
	}
	return ""
}

// changesSince lists what differs from the previous run: command, cwd, preset (TORCH_LOGS), torch, environment.
func changesSince(prev, cur *runs.Meta, prevTorch, curTorch string) []Change {
	out := []Change{}
	if sameCommandText(*prev) != sameCommandText(*cur) {
		out = append(out, Change{What: "command", Before: commandText(*prev), After: commandText(*cur)})
	}
	if prev.Cwd != cur.Cwd {
		out = append(out, Change{What: "cwd", Before: prev.Cwd, After: cur.Cwd})
	}
	if prev.Preset != cur.Preset || !report.SameLogNames(prev.TorchLogs, cur.TorchLogs) {
		out = append(out, Change{What: "preset", Before: presetText(*prev), After: presetText(*cur)})
	}
	if prevTorch != "" && curTorch != "" && prevTorch != curTorch {
		out = append(out, Change{What: "torch", Before: prevTorch, After: curTorch})
	}
	for _, c := range runs.CodeChanges(*prev, *cur) { // the code that ran, where both runs kept it
		out = append(out, Change{What: "code", Key: c.Path, Before: shortHash(c.A), After: shortHash(c.B), Text: c.String()})
	}
	a, b := comparableEnv(*prev, *cur), comparableEnv(*cur, *prev)
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if a[k] != b[k] {
			out = append(out, Change{What: "env", Key: k, Before: a[k], After: b[k]})
		}
	}
	return out
}

func presetText(m runs.Meta) string {
	p := m.Preset
	if p == "" {
		p = "(none)"
	}
	if m.TorchLogs != "" {
		p += " (" + m.TorchLogs + ")"
	}
	return p
}

// comparableEnv is m's environment additions without what the preset sets (TORCH_LOGS, TORCH_TRACE and, when
// the presets differ, the presets' own variables) and with the run's own directory written "<run>" (the probe's
// PYTHONPATH and TORCHTRIAGE_PROBE_DIR point into it).
func comparableEnv(m, other runs.Meta) map[string]string {
	skip := map[string]bool{"TORCH_LOGS": true, "TORCH_TRACE": true}
	if m.Preset != other.Preset {
		for _, name := range []string{m.Preset, other.Preset} {
			if p, ok := runs.PresetByName(name); ok {
				for k := range p.Env {
					skip[k] = true
				}
			}
		}
	}
	var own *regexp.Regexp
	if m.Name != "" {
		own = regexp.MustCompile(`[^:\s=]*/` + regexp.QuoteMeta(m.Name) + `(/|:|$)`)
	}
	out := map[string]string{}
	for k, v := range m.Env {
		if skip[k] {
			continue
		}
		if m.Dir != "" {
			v = strings.ReplaceAll(v, m.Dir, "<run>")
		}
		if own != nil {
			v = own.ReplaceAllString(v, "<run>$1")
		}
		out[k] = v
	}
	return out
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
