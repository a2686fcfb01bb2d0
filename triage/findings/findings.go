package findings

import (
	"cmp"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Kind is what a finding is about: the playbooks' vocabulary, shared with the UI.
type Kind = playbooks.Kind

// Finding kinds.
const (
	KindGraphBreak         = playbooks.KindGraphBreak
	KindRecompile          = playbooks.KindRecompile
	KindLimitHit           = playbooks.KindLimitHit
	KindCudagraphSkip      = playbooks.KindCudagraphSkip
	KindCompileError       = playbooks.KindCompileError
	KindRankDisagreement   = playbooks.KindRankDisagreement
	KindConfigParity       = playbooks.KindConfigParity
	KindProbeMismatch      = playbooks.KindProbeMismatch
	KindRuntimeError       = playbooks.KindRuntimeError
	KindCudagraphPartition = playbooks.KindCudagraphPartition
	KindCudagraphRerecord  = playbooks.KindCudagraphRerecord
	KindGPUWarning         = playbooks.KindGPUWarning
	KindHang               = playbooks.KindHang
	KindCompileAfterWarmup = playbooks.KindCompileAfterWarmup
	KindAccuracy           = playbooks.KindAccuracy
)

// Categories.
const (
	CategoryFix      = "fix"
	CategoryConsider = "consider"
	CategoryExpected = "expected"
)

// Finding is one thing an on-call engineer acts on, with its recommended playbook.
type Finding struct {
	ID       string `json:"id"` // stable across runs: kind + site + what
	Kind     Kind   `json:"kind"`
	Severity string `json:"severity"` // high|medium|low|info
	Category string `json:"category"` // fix|consider|expected
	Title    string `json:"title"`
	// Basis is what the finding's cause rests on where the log's words do not show it, said in its title and
	// detail: "probe: Adam.step wrapped by the LR scheduler" (the probe saw it), or "inferred from the wording: …"
	// (a guess, labelled as one).
	Basis    string `json:"basis,omitempty"`
	What     string `json:"what"` // short label for a list row: "print()", "shape x[0] 8→9"
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Function string `json:"function,omitempty"` // the actionable user frame
	// Module: a recompile of torch's wrapper `inner` (a compiled torch.nn module whose forward torch's trace rules
	// skip) names the module's class the probe recorded ("TransformerEncoderLayer"); File/Line/Function are then
	// the user's call of it. "" elsewhere, or without the probe.
	Module string `json:"module,omitempty"`
	// CompiledAt is where the user called torch.compile on what this finding's frame compiles (the module, the
	// function), as the probe saw it (compile_site.py); nil without the probe or where it saw no such call, or
	// more than one; with the dynamic=, mode= and fullgraph= it was given.
	CompiledAt *probe.CompileCall `json:"compiled_at,omitempty"`
	// Do is the first thing to do about this finding in its own words, where its playbook's first step is
	// generic (a rank disagreement: what the differing ranks do that the reference does not, by name and rank);
	// "" where the playbook's first step says it.
	Do string `json:"do,omitempty"`
	// Resume is, for recompiles and limit hits of a Dynamo resume function, the line of the user's function where
	// it resumes after a graph break (0: the function itself).
	Resume int `json:"resume_line,omitempty"`
	// GBID is the graph-break id the log names ("GB0059"), when it names one.
	GBID string `json:"gb_id,omitempty"`
	// GBType is the graph break's type as torch names it ("Unsupported method call"), when the log names one.
	GBType string `json:"gb_type,omitempty"`
	// BreakSite is where torch broke the graph ("…/contextlib.py:109"), for breaks: File and Line are the
	// user's frame when the log names one.
	BreakSite  string   `json:"-"`
	Records    int      `json:"records"`
	Ranks      []int    `json:"ranks"`
	CompileIDs []string `json:"compile_ids,omitempty"`
	Expected   bool     `json:"expected"` // by design, or automatic dynamic's first recompile
	// Caught: a compile error the program caught and went on after (no process died of it; the frame did not compile)
	Caught bool `json:"caught,omitempty"`
	// Suppressed: a compile error Dynamo gave up on itself (WON'T CONVERT, suppress_errors): the frame never
	// compiles and runs eager on every call (Caught too: no process died of it)
	Suppressed bool `json:"suppressed,omitempty"`
	// PeerGone: a rank died of its peer's failure (its collective lost the peer after another rank failed first)
	PeerGone           bool          `json:"peer_gone,omitempty"`
	InRecompilingFrame bool          `json:"in_recompiling_frame,omitempty"`
	Classes            []guard.Class `json:"classes,omitempty"`   // recompiles: classified failures
	LimitHit           bool          `json:"limit_hit,omitempty"` // recompiles: the frame hit the recompile limit
	// Variants: a recompile group of bounded variants (an Enum member, a bool or str mode, None or not), each
	// compiled once: expected, to warm up, not a defect (recompile_classes.go)
	Variants bool              `json:"variants,omitempty"`
	Playbook string            `json:"playbook"`
	Related  []string          `json:"related"`
	Evidence []report.Evidence `json:"evidence"`
	// Why is the finding's own why where its playbook's generic Why would be false for it (a break's playbook on a
	// fullgraph error: nothing resumes after the break, the frame did not compile); the TUI's Recommended box shows
	// it in the playbook's place, the detail holds it
	Why    string `json:"why,omitempty"`
	Detail string `json:"detail,omitempty"` // multi-line plain text for a detail view

	Key        string                  `json:"-"` // compare key for diff and baseline (CompareKey)
	oldKey     string                  // the key of baselines written before break identities (lineKey), when it differs
	RankStats  map[int]report.RankStat `json:"-"` // per rank (rank agreement, diff); -1 = a process without rank
	unexpected int                     // recompiles: records beyond automatic dynamic's expected first one; re-records: the re-recordings known
	// firstFailure: this error holds the run's first failure (Report.FirstFailure, its order known): the one the
	// others followed from, listed and named first
	FirstFailure bool `json:"-"`
	// fnSite: the site is the function's first line, the log naming no line of the item itself (a recompile
	// without its guard's user stack, as 2.6 prints it): no "moved" against a site of the item's own line
	FnSite bool `json:"-"`
	// silentFailure: a probe mismatch of frames that failed to compile which the log does not show (the breaks
	// step's work, as a fullgraph refusal is)
	SilentFailure bool `json:"-"`
	// expectedAssumed: a recompile whose expected records are automatic dynamic's by assumption (the default), no
	// dynamic log or trace showing the symbol made (its title says so; the gate's counted line too)
	expectedAssumed bool
	// basisDetail is the detail's paragraph on Basis
	basisDetail string
}

// ExpectedAssumed reports a recompile whose expected records are automatic dynamic's by assumption (the default):
// no dynamic log or trace shows the symbol made. Its title says so; the TUI marks it a guess.
func (f *Finding) ExpectedAssumed() bool { return f.expectedAssumed }

// cgWarningToFix reports a CUDA-graph warning whose playbook says fix (pending backwards: calls that missed the
// fast path): work for the verdict, the CUDA-graph step and --no-cudagraph-skips.
func (f *Finding) CgWarningToFix() bool {
	return f.Kind == KindGPUWarning && f.Category == CategoryFix && strings.HasPrefix(f.Playbook, "cg-")
}

// CompareKey is what `diff` and the baseline compare: breaks by file, function, what and source line text
// (identity.go; not the line number), recompiles by function and guard class (input, resume line and values
// left out: one repro's runs differ there), skips by reason, errors by class.
func (f *Finding) CompareKey() string {
	if f.Key != "" {
		return f.Key
	}
	return f.ID
}

// PerRank returns the records of the finding per rank (-1 for a process without rank).
func (f *Finding) PerRank() map[int]int {
	out := make(map[int]int, len(f.RankStats))
	for r, st := range f.RankStats {
		out[r] = st.N
	}
	return out
}

// Unexpected is the number of records that count against a gate: for recompiles those beyond automatic
// dynamic's expected first one, for re-records the re-recordings the input shows, for other kinds all records
// unless the finding is expected.
func (f *Finding) Unexpected() int {
	if f.Kind == KindRecompile || f.Kind == KindCudagraphRerecord {
		return f.unexpected
	}
	if f.Expected {
		return 0
	}
	return f.Records
}

var SeverityRank = map[string]int{"high": 0, "medium": 1, "low": 2, "info": 3}

// sortFindings orders by impact: severity, then records, then id; equal ones keep their order. It sorts small
// keys, not the findings (a Finding is large: the comparisons read keys side by side, not thousands of findings
// scattered), then moves each finding once to its place, along the cycles of that order (no second array of them).
func SortFindings(fs []Finding) {
	type key struct {
		sev, records int
		i            int // where this place's finding is before the moves; this place once it is moved
		first        bool
		id           string
	}
	keys := make([]key, len(fs))
	for i := range fs {
		f := &fs[i]
		keys[i] = key{sev: SevRank(f.Severity), records: f.Records, i: i, first: f.FirstFailure, id: f.ID}
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := cmp.Compare(a.sev, b.sev); c != 0 { // each key only where the ones before tie (cmp.Or computes all)
			return c
		}
		if c := -cmpBool(a.first, b.first); c != 0 {
			return c
		}
		if c := cmp.Compare(b.records, a.records); c != 0 {
			return c
		}
		return cmp.Or(strings.Compare(a.id, b.id), cmp.Compare(a.i, b.i))
	})
	for k := range keys { // place k takes the finding at keys[k].i, which takes the one at its key's i, …, back to k
		if keys[k].i == k {
			continue
		}
		held := fs[k]
		for j := k; ; {
			from := keys[j].i
			keys[j].i = j // placed
			if from == k {
				fs[j] = held
				break
			}
			fs[j] = fs[from]
			j = from
		}
	}
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func SevRank(s string) int {
	if r, ok := SeverityRank[s]; ok {
		return r
	}
	return len(SeverityRank)
}

// uniqueIDs makes IDs unique ("#2", "#3" for later duplicates) in the current order.
func UniqueIDs(fs []Finding) {
	seen := make(map[string]int, len(fs))
	for i := range fs {
		id := fs[i].ID
		if n := seen[id]; n > 0 {
			fs[i].ID = id + "#" + strconv.Itoa(n+1)
		}
		seen[id]++
	}
}

// ShortPath is how a file appears in finding IDs: torch and installed packages from their package root
// ("torch/nn/parallel/distributed.py"), the user's files by base name (checkouts differ between machines).
func ShortPath(file string) string {
	p := strings.ReplaceAll(file, `\`, "/")
	// LastIndex searches byte by byte: asked only where Contains (vectorised) finds a marker, which the user's files
	// (most sites, two IDs a break) have none of
	if strings.Contains(p, "-packages/") {
		for _, marker := range []string{"site-packages/", "dist-packages/"} {
			if i := strings.LastIndex(p, marker); i >= 0 {
				return p[i+len(marker):]
			}
		}
	}
	if strings.Contains(p, "/torch/") {
		return p[strings.LastIndex(p, "/torch/")+1:]
	}
	return filepath.Base(p)
}

var digits = regexp.MustCompile(`\d+`)

// normalizeText blanks hex addresses and collapses whitespace (IDs, grouping).
func normalizeText(s string, max int) string {
	return text.ClipRunes(report.HexAddr.ReplaceAllString(s, "0x…"), max)
}

func RanksOf(m map[int]report.RankStat) []int {
	out := make([]int, 0, len(m))
	for r := range m {
		if r >= 0 {
			out = append(out, r)
		}
	}
	sort.Ints(out)
	return out
}

func SiteText(file string, line int) string {
	if file == "" {
		return "unknown site"
	}
	return text.Site(file, line)
}

// diffKindOrder lists the kinds a diff compares, in the order NotCompared names them.
var DiffKindOrder = []Kind{KindGraphBreak, KindRecompile, KindLimitHit, KindCudagraphSkip, KindCudagraphPartition,
	KindCudagraphRerecord, KindCompileError, KindRuntimeError, KindAccuracy}
