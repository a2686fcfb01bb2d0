package playbooks

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:generate go run ./internal/gbregistry -in registry/graph_break_registry-2.14.1.json -out registry_gen.go

// registryEntry is one GB id of PyTorch's graph-break registry (registry_gen.go holds them all, generated from
// the copy in registry/): its gb_type, the gb_types it had in earlier releases, its explanation and its hints,
// in PyTorch's words made readable.
type registryEntry struct {
	id     string   // "GB0059"
	gbType string   // the gb_type of RegistryTorch
	older  []string // the gb_types it had before (older logs print those)
	why    string   // the explanation; "" where the registry gives none
	do     []string // the hints, one step each
}

// RegistryPrefix starts the id of every registry playbook: gb-registry-0059 is GB0059's.
const RegistryPrefix = "gb-registry-"

// RegistrySource is the Source of a registry playbook.
const RegistrySource = "registry"

// FromRegistry reports whether p was made from PyTorch's graph-break registry (not written for torchtriage).
func (p *Playbook) FromRegistry() bool { return p.Source == RegistrySource }

// GBSiteURL is the page of a graph-break id on PyTorch's graph-break site, the link torch 2.9+ prints after each
// break ("For more details about this graph break, please visit: …/gb/gb0059.html").
func GBSiteURL(gbID string) string {
	return "https://meta-pytorch.github.io/compile-graph-break-site/gb/" + strings.ToLower(NormalizeGBID(gbID)) + ".html"
}

// RegistryLen is the number of GB ids in the registry.
func RegistryLen() int { return len(registryEntries) }

// registryCache holds the playbooks made so far: one is made the first time it is asked for (a break no
// built-in playbook covers, explain, search), not at start-up.
var registryCache struct {
	mu sync.Mutex
	ps [len(registryEntries)]*Playbook
}

func registryAt(i int) *Playbook {
	registryCache.mu.Lock()
	defer registryCache.mu.Unlock()
	if registryCache.ps[i] == nil {
		registryCache.ps[i] = registryPlaybook(&registryEntries[i])
	}
	return registryCache.ps[i]
}

// registryIndex is the index of a GB id in registryEntries, -1 when the registry does not have it.
func registryIndex(gbID string) int {
	id := NormalizeGBID(gbID)
	i := sort.Search(len(registryEntries), func(i int) bool { return registryEntries[i].id >= id })
	if i < len(registryEntries) && registryEntries[i].id == id {
		return i
	}
	return -1
}

// RegistryByGBID is the registry playbook of a GB id (any spelling NormalizeGBID accepts), nil when the registry
// of RegistryTorch does not have it.
func RegistryByGBID(gbID string) *Playbook {
	if i := registryIndex(gbID); i >= 0 {
		return registryAt(i)
	}
	return nil
}

// Registry returns every registry playbook, by GB id.
func Registry() []*Playbook {
	out := make([]*Playbook, len(registryEntries))
	for i := range registryEntries {
		out[i] = registryAt(i)
	}
	return out
}

type typePattern struct {
	re *regexp.Regexp
	i  int
}

// registryTypes maps each gb_type (lower case, current and older) to the entries that carry it, those whose
// current gb_type it is first, then by id; gb_types with a {placeholder} are patterns. Made on first use.
var registryTypes = sync.OnceValues(func() (map[string][]int, []typePattern) {
	byType := make(map[string][]int, len(registryEntries)+64)
	var pats []typePattern
	add := func(t string, i int) {
		if strings.Contains(t, "{") {
			pats = append(pats, typePattern{placeholderPattern(t), i})
			return
		}
		k := strings.ToLower(t)
		byType[k] = append(byType[k], i)
	}
	for i := range registryEntries {
		add(registryEntries[i].gbType, i)
	}
	for i := range registryEntries {
		for _, t := range registryEntries[i].older {
			add(t, i)
		}
	}
	return byType, pats
})

var placeholder = regexp.MustCompile(`\{[^{}]*\}`)

// placeholderPattern matches a gb_type with {placeholders} as torch prints it, each filled in.
func placeholderPattern(t string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?i)^")
	last := 0
	for _, loc := range placeholder.FindAllStringIndex(t, -1) {
		b.WriteString(regexp.QuoteMeta(t[last:loc[0]]))
		b.WriteString(".+?")
		last = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(t[last:]))
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// RegistryByGBType is the registry playbook of a gb_type (case-insensitive; a gb_type of an earlier release
// too), nil when none has it. Two ids that share one gb_type: the one whose current gb_type it is, then the lower id.
func RegistryByGBType(gbType string) *Playbook {
	t := strings.TrimSpace(gbType)
	if t == "" {
		return nil
	}
	byType, pats := registryTypes()
	if is := byType[strings.ToLower(t)]; len(is) > 0 {
		return registryAt(is[0])
	}
	for _, p := range pats {
		if p.re.MatchString(t) {
			return registryAt(p.i)
		}
	}
	return nil
}

// registryPrefixes are the registry's plain gb_types (no {placeholder}), lower case, longest first, each with its
// entry's index: the start of a message of an older torch that logs no gb_type. Made on first use.
var registryPrefixes = sync.OnceValue(func() []typePrefix {
	byType, _ := registryTypes()
	out := make([]typePrefix, 0, len(byType))
	for t, is := range byType {
		if len(t) >= minTypePrefix {
			out = append(out, typePrefix{t, is[0]})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].t) != len(out[j].t) {
			return len(out[i].t) > len(out[j].t)
		}
		return out[i].t < out[j].t
	})
	return out
})

type typePrefix struct {
	t string
	i int
}

// minTypePrefix is the shortest gb_type read at the start of a message: shorter ones ("Tensor.item") are words
// that start unrelated messages too.
const minTypePrefix = 16

// registryEntryIn is the registry entry whose gb_type starts reason, a message of a torch that logs no GB id and
// no gb_type (2.7 and older: `Unsupported: torch.* op returned non-Tensor dict call_function …`): Dynamo's
// messages of those releases became the gb_types of the registry. The gb_type must end at a word's end; the
// longest one wins. -1 when none starts it.
func registryEntryIn(reason string) int {
	r := strings.TrimSpace(reason)
	if i := strings.IndexByte(r, '\n'); i >= 0 {
		r = r[:i]
	}
	r = strings.TrimPrefix(r, "Unsupported: ")
	r = strings.ToLower(strings.TrimLeft(r, "'\" "))
	if len(r) < minTypePrefix {
		return -1
	}
	for _, p := range registryPrefixes() {
		if strings.HasPrefix(r, p.t) && (len(r) == len(p.t) || !isWordByte(r[len(p.t)]) || !isWordByte(p.t[len(p.t)-1])) {
			return p.i
		}
	}
	return -1
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// registryFor is the registry playbook of a graph break (or a fullgraph error) by its GB id, else by its
// gb_type, and the level it matched at; a user playbook of the same id stands in for it.
func (s *Set) registryFor(q Query) (*Playbook, string) {
	if q.GBID == "" && q.GBType == "" {
		return nil, ""
	}
	p, level := (*Playbook)(nil), ""
	if q.GBID != "" {
		p, level = RegistryByGBID(q.GBID), LevelGBID
	}
	if p == nil && q.GBType != "" {
		p, level = RegistryByGBType(q.GBType), LevelGBType
	}
	if p == nil {
		return nil, ""
	}
	p = s.own(p)
	if !slices.Contains(p.Match.Kinds, q.Kind) {
		return nil, ""
	}
	return p, level
}

// own is the user's playbook of p's id when there is one, else p.
func (s *Set) own(p *Playbook) *Playbook {
	if u, ok := s.byID[p.ID]; ok {
		return u
	}
	return p
}

// registryPlaybook makes the playbook of one registry entry: the gb_type is its title, the explanation its Why,
// the hints its steps and the GB id's page its source, each marked as PyTorch's words. The registry's words are
// edited between releases: the playbook matches on its GB id and gb_types only, never on them.
func registryPlaybook(e *registryEntry) *Playbook {
	p := &Playbook{
		ID: RegistryPrefix + strings.TrimPrefix(e.id, "GB"), Title: e.gbType, Severity: "medium", Category: "consider",
		Preset: "breaks", Source: RegistrySource,
		Match: Match{Kinds: []Kind{KindGraphBreak, KindCompileError}, GBIDs: []string{e.id},
			GBTypes: append([]string{e.gbType}, e.older...)},
	}
	var b strings.Builder
	b.WriteString("## Why\n")
	if e.why != "" {
		end := "”\n"
		if !strings.HasSuffix(e.why, ".") && !strings.HasSuffix(e.why, "!") && !strings.HasSuffix(e.why, "?") {
			end = "”.\n" // the note after it starts a sentence
		}
		b.WriteString("In PyTorch's own words (its graph-break registry, torch " + RegistryTorch + "): “" + e.why + end)
	} else {
		b.WriteString("PyTorch's graph-break registry (torch " + RegistryTorch + ") explains " + e.id +
			" no further than its type: the log's `Explanation:` line says what happened.\n")
	}
	templated := strings.Contains(e.why, "{")
	for _, h := range e.do {
		templated = templated || strings.Contains(h, "{")
	}
	note := "torchtriage has no playbook of its own for this break; "
	if len(e.do) > 0 {
		note += "the steps are PyTorch's hints, as its registry words them"
	} else {
		note += "the registry gives no hints: the steps are torchtriage's general ones"
	}
	if templated {
		note += "; `{…}` is what PyTorch fills in at the break (the log's lines show it)"
	}
	b.WriteString(note + ".\n## Do\n")
	steps := e.do
	if len(steps) == 0 {
		steps = noHintSteps
	}
	for i, s := range steps {
		b.WriteString(strconv.Itoa(i+1) + ". " + s + "\n")
	}
	b.WriteString("## Verify\nRerun preset `breaks`: no " + e.id + " break (\"" + e.gbType + "\") at that line.\n")
	b.WriteString("## Sources\n- " + GBSiteURL(e.id) + "\n")
	p.Body = b.String()
	return p
}

// noHintSteps are the steps of a registry playbook whose GB id has no hints.
var noHintSteps = []string{
	"Read the break's `Explanation:` and `Developer debug context:` lines in the log, and its page on PyTorch's " +
		"graph-break site (Sources).",
	"Move the code that breaks out of the compiled region, or mark its function `@torch.compiler.disable` " +
		"(one break instead of several).",
	"Confirm on a small region with `fullgraph=True`; a break that looks like a Dynamo bug: report it to PyTorch.",
}
