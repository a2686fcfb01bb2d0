package ranks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// The quantities rank agreement compares, as the summary and the JSON (compared_on, not_compared) name them: a
// probe's counters may count some of them for a rank no log record names and leave the others unknown.
const (
	QuantityGraphBreaks    = "graph breaks"
	QuantityRecompiles     = "recompiles" // and recompile-limit hits
	QuantityCompileErrors  = "compile errors"
	QuantityCudagraphSkips = "CUDA-graph skips"
)

var AgreementQuantities = []string{QuantityGraphBreaks, QuantityRecompiles, QuantityCompileErrors, QuantityCudagraphSkips}

// quantityOf is the quantity a kind of agreementKinds counts in.
func quantityOf(k findings.Kind) string {
	switch k {
	case findings.KindGraphBreak:
		return QuantityGraphBreaks
	case findings.KindRecompile, findings.KindLimitHit:
		return QuantityRecompiles
	case findings.KindCudagraphSkip:
		return QuantityCudagraphSkips
	}
	return QuantityCompileErrors
}

// ProbeCompared is a rank no log record names that rank agreement compared by its probe's counters, on the
// quantities they counted (ComparedOn: as having none of them); NotCompared are the others, ProbeCounted what the
// counters counted that leaves each unknown ("3 frame compiles, which may be recompiles").
type ProbeCompared struct {
	report.RankWithoutRecords
	ComparedOn   []string `json:"compared_on"`
	NotCompared  []string `json:"not_compared,omitempty"`
	ProbeCounted []string `json:"probe_counted,omitempty"`
}

func (c ProbeCompared) alike(d ProbeCompared) bool {
	return probeFrames(c.RankWithoutRecords) == probeFrames(d.RankWithoutRecords) && slices.Equal(c.ComparedOn, d.ComparedOn) &&
		slices.Equal(c.NotCompared, d.NotCompared) && slices.Equal(c.ProbeCounted, d.ProbeCounted)
}

// probeCount is what the probes of a rank counted: read false where none read Dynamo's counters; unknown the
// quantities the counters leave unknown, whys what they counted that leaves each so; frames the frames compiled.
type probeCount struct {
	read          bool
	unknown, whys []string
	frames        int
}

// known is the quantities the counters count: those not unknown.
func (pc probeCount) known() []string {
	return slices.DeleteFunc(slices.Clone(AgreementQuantities), func(q string) bool { return slices.Contains(pc.unknown, q) })
}

// probeCounted reads the probes of a rank that no log record names: Dynamo's counters count no graph break, one
// frame compile at most (no recompile), none failed, no CUDA-graph skip, or leave that quantity unknown. The
// counters do not say where a break or recompile was, nor tell a recompile from another frame's first compile:
// any of them leaves its quantity unknown ("3 frame compiles, which may be recompiles").
func probeCounted(rank int, probes []report.ProcessInfo) probeCount {
	var breaks, total, ok, unsupported, skips int
	var pc probeCount
	for _, p := range probes {
		if p.RankOf() != rank || p.Counters == nil {
			continue
		}
		pc.read = true
		for reason, n := range p.Counters["graph_break"] {
			if reason != "total" && n > 0 {
				breaks++
			}
		}
		for _, n := range p.Counters["unimplemented"] {
			if n > 0 {
				unsupported++
			}
		}
		total += int(max(p.Counters["frames"]["total"], p.Counters["frames"]["ok"]))
		ok += int(p.Counters["frames"]["ok"])
		skips += int(p.Counters["inductor"]["cudagraph_skips"])
	}
	if !pc.read {
		return probeCount{unknown: slices.Clone(AgreementQuantities)}
	}
	pc.frames = ok
	add := func(q, why string) { pc.unknown, pc.whys = append(pc.unknown, q), append(pc.whys, why) }
	if breaks > 0 {
		add(QuantityGraphBreaks, report.Plural(breaks, "graph break"))
	}
	if total > 1 {
		add(QuantityRecompiles, report.Plural(total, "frame compile")+", which may be recompiles")
	}
	if total > ok {
		add(QuantityCompileErrors, report.Plural(total-ok, "frame")+" that did not compile")
	} else if unsupported > 0 {
		add(QuantityCompileErrors, fmt.Sprintf("%d Unsupported it did not trace", unsupported))
	}
	if skips > 0 {
		add(QuantityCudagraphSkips, report.Plural(skips, "CUDA-graph skip"))
	}
	return pc
}

// ProbeBasis words the ranks compared by their probes' counters (FromProbe), for the summary and the gate, one
// part per group of ranks alike: "rank 0 as its probe counted (no log record names it): 1 compiled frame, no graph
// break"; of a rank compared on some quantities, also those not compared: "rank 0 as its probe counted (no log
// record names it): no graph break; its recompiles not compared (its probe counted 3 frame compiles, which may be
// recompiles)", and where it showed no difference, with whom it agrees ("rank 2, which no log record names, agrees
// with ranks 0,1 on what its probe counted: …"); "" when none was.
func (ra RankAgreement) ProbeBasis() string {
	type group struct {
		ranks   []int
		pc      ProbeCompared
		differs bool
	}
	var groups []group
	for _, u := range ra.FromProbe {
		differs := len(u.NotCompared) > 0 && ra.differs(u.Rank) // of a rank compared on all, the words are one
		i := slices.IndexFunc(groups, func(g group) bool { return g.pc.alike(u) && g.differs == differs })
		if i < 0 {
			i, groups = len(groups), append(groups, group{pc: u, differs: differs})
		}
		groups[i].ranks = append(groups[i].ranks, u.Rank)
	}
	var parts []string
	for i, g := range groups {
		if i == report.SummaryGroups {
			parts = append(parts, fmt.Sprintf("… %d more groups of ranks as their probes counted", len(groups)-report.SummaryGroups))
			break
		}
		parts = append(parts, ra.basisWords(g.ranks, g.pc, g.differs))
	}
	return strings.Join(parts, "; ")
}

func (ra RankAgreement) basisWords(ranks []int, pc ProbeCompared, differs bool) string {
	its, probe, them, each, agrees := "its", "probe", "it", "", "agrees"
	if len(ranks) > 1 {
		its, probe, them, each, agrees = "their", "probes", "them", " each", "agree"
	}
	var s string
	if len(pc.NotCompared) > 0 && !differs && len(ra.Groups) > 0 {
		s = fmt.Sprintf("%s, which no log record names, %s with %s on what %s %s counted: %s%s", report.RankWord(ranks), agrees,
			report.RankWord(ra.Groups[0].Ranks), its, probe, countedWords(pc), each)
	} else {
		s = fmt.Sprintf("%s as %s %s counted (no log record names %s): %s%s", report.RankWord(ranks), its, probe, them, countedWords(pc), each)
	}
	if len(pc.NotCompared) > 0 {
		s += fmt.Sprintf("; %s %s not compared (%s %s counted %s%s)", its, playbooks.JoinAnd(pc.NotCompared), its, probe,
			playbooks.JoinAnd(pc.ProbeCounted), each)
	}
	return s
}

// countedWords words what a rank's probe counted of the quantities it was compared on: "1 compiled frame, no graph
// break", "no compiled frame", "no graph break" (its frame compiles may be recompiles).
func countedWords(pc ProbeCompared) string {
	has := func(q string) bool { return slices.Contains(pc.ComparedOn, q) }
	frames := probeFrames(pc.RankWithoutRecords)
	var parts []string
	if has(QuantityRecompiles) {
		if frames > 0 {
			parts = append(parts, report.Plural(frames, "compiled frame"))
		} else {
			parts = append(parts, "no compiled frame")
		}
	}
	if has(QuantityGraphBreaks) && (!has(QuantityRecompiles) || frames > 0) {
		parts = append(parts, "no graph break")
	}
	if len(parts) == 0 {
		if has(QuantityCompileErrors) {
			parts = append(parts, "no frame that failed to compile")
		}
		if has(QuantityCudagraphSkips) {
			parts = append(parts, "no CUDA-graph skip")
		}
	}
	return strings.Join(parts, ", ")
}

// differs: rank r is in a group that differs from the reference.
func (ra RankAgreement) differs(r int) bool {
	for _, g := range ra.Groups[min(1, len(ra.Groups)):] {
		if slices.Contains(g.Ranks, r) {
			return true
		}
	}
	return false
}

func probeFrames(u report.RankWithoutRecords) int {
	if u.ProbeFrames == nil {
		return -1
	}
	return *u.ProbeFrames
}

// QuantityOf is the quantity rank agreement compares findings of kind k in (QuantityGraphBreaks, …), "" for a
// kind it does not compare: what FromProbe's ComparedOn says of a finding of that kind.
func QuantityOf(k findings.Kind) string {
	if _, ok := agreementKinds[k]; !ok {
		return ""
	}
	return quantityOf(k)
}
