package playbooks

import (
	"regexp"
	"strings"
)

// Kind is what a finding is about: the one vocabulary of finding kinds, shared by the playbooks (front matter
// `match.kinds`), the analysis (triage.Finding.Kind) and the UI. Its text is the name in JSON and front matter.
type Kind string

// Finding kinds.
const (
	KindGraphBreak       Kind = "graph_break"
	KindRecompile        Kind = "recompile"
	KindLimitHit         Kind = "limit_hit"
	KindCudagraphSkip    Kind = "cudagraph_skip"
	KindCompileError     Kind = "compile_error"
	KindRankDisagreement Kind = "rank_disagreement"
	KindConfigParity     Kind = "config_parity"
	KindStall            Kind = "stall"
	KindProbeMismatch    Kind = "probe_mismatch"
	// KindRuntimeError: a process died of an uncaught exception that is not a compile error (CUDA OOM, NCCL, …).
	KindRuntimeError Kind = "runtime_error"
	// KindCudagraphPartition: Inductor left part of a graph out of CUDA graphs (2.9+ graph partitions).
	KindCudagraphPartition Kind = "cudagraph_partition"
	// KindCudagraphRerecord: CUDA-graph trees recorded a function again (a static input's pointer changed, …).
	KindCudagraphRerecord Kind = "cudagraph_rerecord"
	// KindGPUWarning: a GPU warning worth knowing (distinct sizes recorded, pending backwards, the TF32 hint, …).
	KindGPUWarning Kind = "gpu_warning"
	// KindCacheMiss: a compile cache that should hit does not (a bypass, one rank cold while others hit).
	KindCacheMiss Kind = "cache_miss"
	// KindCompileTime: compile time worth acting on (ranks far apart, risky knobs).
	KindCompileTime Kind = "compile_time"
	// KindDDPSplit: DDPOptimizer split a graph at DDP's bucket boundaries (the ddp_graphs log), by design.
	KindDDPSplit Kind = "ddp_split"
	// KindHang: where the ranks of a job wait, and why (report.Hang): ranks in different collectives, a collective
	// mismatch DETAIL names, a rank dead while the others wait, a rank compiling while they wait (no hang), a wait
	// outside collectives.
	KindHang Kind = "hang"
	// KindCompileAfterWarmup: something compiled once the program was past its warm-up (steady.AfterWarmup): a
	// recompile, a new frame, a lazy backward or a CUDA-graph recording at a step the steady state should not compile.
	KindCompileAfterWarmup Kind = "compile_after_warmup"
	// KindAccuracy: the compiled result is wrong: PyTorch's accuracy check (TORCHDYNAMO_REPRO_LEVEL=4) found the
	// compiled graph differs from eager beyond tolerance (AccuracyError); never a pass.
	KindAccuracy Kind = "accuracy"
)

// Kinds lists the finding kinds a playbook can match (Query.Kind).
func Kinds() []Kind {
	return []Kind{KindGraphBreak, KindRecompile, KindLimitHit, KindCudagraphSkip, KindCompileError,
		KindRankDisagreement, KindConfigParity, KindStall, KindProbeMismatch, KindRuntimeError,
		KindCudagraphPartition, KindCudagraphRerecord, KindGPUWarning, KindCacheMiss, KindCompileTime, KindDDPSplit, KindHang, KindCompileAfterWarmup,
		KindAccuracy}
}

func kindNames() []string { return KindStrings(Kinds()) }

// KindStrings are the names of kinds.
func KindStrings(kinds []Kind) []string {
	out := make([]string, 0, len(kinds))
	for _, k := range kinds {
		out = append(out, string(k))
	}
	return out
}

// GuardClasses are the guard-failure classes the triage layer puts in
// Query.GuardClass for recompiles and recompile-limit hits. stack_float is the
// `___stack0 == 4.79` guard on a Python float that came from .item() across a
// graph break. enum is an object-identity guard on an Enum member (a bounded set), none an `x is None` guard,
// singleton 2.6's identity guard on True/False/None, dict_key `___dict_contains` (an optional key), hasattr a
// lazily created attribute, global_container a module-level list or dict read by the compiled code (a cache keyed by data_ptr() or
// id() too: its length grows), module_attr a number or string stored on the module, closure_cell a value held in a
// closure cell of a function the compiled code calls (G['helper'].__closure__[0].cell_contents == 0.5).
var GuardClasses = []string{
	"size", "stride", "rank", "dtype", "device", "requires_grad",
	"value_int", "value_float", "value_str", "value_bool", "obj_id", "type",
	"global_state", "length", "param_shape", "backend", "stack_float",
	"enum", "none", "singleton", "dict_key", "hasattr", "global_container", "module_attr", "closure_cell", "other",
}

// Severities, Categories and Presets are the allowed front-matter values.
var (
	Severities = []string{"high", "medium", "low", "info"}
	// Categories: fix (a change removes it), consider (a trade-off), expected
	// (by design, not a bug: keep it out of zero-break gates).
	Categories = []string{"fix", "consider", "expected"}
	Presets    = []string{"breaks", "recompiles", "guards", "cudagraphs", "distributed", "trace", "deep", "eager"}
)

// GenericPrefix starts the id of every fallback playbook (generic-<kind>).
const GenericPrefix = "generic-"

// UnknownFallbackID is the fallback for a query whose kind has no generic-<kind>.
const UnknownFallbackID = "generic-unknown"

// Match holds what a playbook matches. Reasons and Errors are compiled Go
// regexps; GB ids are upper case (GB0059).
type Match struct {
	Kinds   []Kind
	GBIDs   []string
	GBTypes []string
	Reasons []*regexp.Regexp
	Guards  []string
	Errors  []*regexp.Regexp
}

// HasCriteria reports whether the match has anything besides kinds.
func (m Match) HasCriteria() bool {
	return len(m.GBIDs)+len(m.GBTypes)+len(m.Reasons)+len(m.Guards)+len(m.Errors) > 0
}

// Playbook is one parsed playbook: front matter plus Markdown body.
type Playbook struct {
	ID       string
	Title    string
	Severity string
	Category string
	Match    Match
	Related  []string
	Preset   string
	Body     string // Markdown without the front matter
	Source   string // file path, or "builtin"

	relatedLine int // front-matter line of `related`, for error messages
}

// IsGeneric reports whether p is a fallback (generic-<kind>) playbook.
func (p *Playbook) IsGeneric() bool { return strings.HasPrefix(p.ID, GenericPrefix) }

// Expected reports whether the finding is by design (category expected).
func (p *Playbook) Expected() bool { return p.Category == "expected" }

// Why is the text of the "## Why" section.
func (p *Playbook) Why() string { return strings.TrimSpace(strings.Join(p.section("Why"), "\n")) }

// Verify is the text of the "## Verify" section.
func (p *Playbook) Verify() string { return strings.TrimSpace(strings.Join(p.section("Verify"), "\n")) }

// Do returns the numbered steps of the "## Do" section, one string per step
// (continuation lines joined with a space, the "1. " marker removed).
func (p *Playbook) Do() []string { return listItems(p.section("Do"), true) }

// Sources returns the items of the "## Sources" section: the URL of each
// "- <url>" line (or of a Markdown link "[text](url)").
func (p *Playbook) Sources() []string {
	items := listItems(p.section("Sources"), false)
	for i, it := range items {
		items[i] = linkTarget(it)
	}
	return items
}

// Sections returns the names of the "## " sections of the body, in order.
func (p *Playbook) Sections() []string {
	var names []string
	for _, line := range strings.Split(p.Body, "\n") {
		if name, ok := sectionName(line); ok {
			names = append(names, name)
		}
	}
	return names
}

func sectionName(line string) (string, bool) {
	if !strings.HasPrefix(line, "## ") {
		return "", false
	}
	return strings.TrimSpace(line[3:]), true
}

// section returns the lines under "## name" up to the next "## " heading.
func (p *Playbook) section(name string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(p.Body, "\n") {
		if n, ok := sectionName(line); ok {
			if in {
				break
			}
			in = strings.EqualFold(n, name)
			continue
		}
		if in {
			out = append(out, line)
		}
	}
	return out
}

var (
	numberedItem = regexp.MustCompile(`^\d+[.)]\s+`)
	bulletItem   = regexp.MustCompile(`^[-*+]\s+`)
	mdLink       = regexp.MustCompile(`^\[[^\]]*\]\(([^)\s]+)\)$`)
)

// listItems collects list items; lines that are not item starts continue the
// previous item.
func listItems(lines []string, numbered bool) []string {
	marker := bulletItem
	if numbered {
		marker = numberedItem
	}
	var items []string
	for _, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if loc := marker.FindStringIndex(line); loc != nil && loc[0] == 0 && raw == strings.TrimLeft(raw, " \t") {
			items = append(items, strings.TrimSpace(line[loc[1]:]))
			continue
		}
		if len(items) > 0 {
			items[len(items)-1] += " " + line
		}
	}
	return items
}

func linkTarget(item string) string {
	item = strings.TrimSpace(item)
	if m := mdLink.FindStringSubmatch(item); m != nil {
		return m[1]
	}
	return strings.Trim(item, "<>")
}
