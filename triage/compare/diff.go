package compare

import (
	"cmp"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Diff changes.
const (
	ChangeNew     = "new"
	ChangeGone    = "gone"
	ChangeCount   = "changed"
	ChangeMoved   = "moved" // same item, same counts, at other lines (a comment added above it)
	changeNothing = ""
)

// DiffItem is one break (site + what), recompile reason class (function + guard class), limit hit, skip reason
// or error class that differs between two runs.
type DiffItem struct {
	Key      string        `json:"key"`
	Kind     findings.Kind `json:"kind"`
	Title    string        `json:"title"`
	Playbook string        `json:"playbook,omitempty"`
	Change   string        `json:"change"` // new | gone | changed | moved
	What     string        `json:"what,omitempty"`
	// From and To are the sites (file:line) of a moved item in A and in B; both empty when it did not move.
	From   []string     `json:"moved_from,omitempty"`
	To     []string     `json:"moved_to,omitempty"`
	Before int          `json:"before"` // records in A
	After  int          `json:"after"`  // records in B
	Ranks  []RankChange `json:"ranks"`  // ranks whose count changed, grouped by (before, after)
	// Expected: every finding of the item, on both sides, is by design or automatic dynamic's expected first
	// recompile: its coming or going is no fix or regression (a warm PGO profile makes a dimension dynamic from
	// the start, and the expected recompile goes)
	Expected bool `json:"expected,omitempty"`
}

// RankChange is a set of ranks whose count of an item went from Before to After (Before 0: new on those ranks,
// After 0: gone from them). Ranks is empty for a process without rank.
type RankChange struct {
	Ranks  []int `json:"-"`
	Before int   `json:"before"`
	After  int   `json:"after"`
}

// DiffResult compares run A with run B.
type DiffResult struct {
	Items     []DiffItem `json:"items"`
	New       int        `json:"new"`
	Gone      int        `json:"gone"`
	Changed   int        `json:"changed"`
	Moved     int        `json:"moved"`
	Unchanged int        `json:"unchanged"`
	// NotCompared names the kinds a side did not log ("graph breaks: A did not log them (TORCH_LOGS)"): an item
	// of them absent from that side may have happened all the same, so none is listed new, gone or changed.
	NotCompared []string `json:"not_compared"`
	// Commands says that A and B are runs of different commands ("A and B ran different commands (A: … · B:
	// …)"), where both are stored runs; "" otherwise: what is new or gone may be the other program's.
	Commands string `json:"commands,omitempty"`
	// Code lists the files of the code that ran that differ from A to B ("repro.py changed (+2 −1)"), where both
	// are stored runs that kept their code (runs.CodeChanges); empty otherwise.
	Code []runs.CodeChange `json:"code_changes,omitempty"`
	// RankAgreement says how the ranks' agreement changed from A to B where one side's ranks disagreed: "gone"
	// (B's ranks agree), "new" (A's agreed, B's disagree), "still" (both disagree), "unknown" (B's ranks were not
	// compared); nil where neither side's ranks disagreed.
	RankAgreement *RankAgreementChange `json:"rank_agreement,omitempty"`
	// Steady is what compiled after warm-up on each side and what a serving framework states (steady.go); nil
	// when neither side has a warm-up clock or serving lines
	Steady *SteadyChange `json:"steady,omitempty"`

	compared []findings.Kind // the kinds both sides logged (the text's "no difference in …")
	// skippedNew, skippedGone: A (B) did not complete, so what it never reached is not new (gone) in B, whether
	// or not an item was left out for it (NotCompared says which)
	skippedNew, skippedGone bool
}

type diffSide struct {
	first   *findings.Finding
	total   int
	perRank map[int]int
	sites   map[string]bool
	fnSite  bool // a site is a function's first line (Finding.fnSite)
	// unexpected: a finding of the item is not by design nor automatic dynamic's expected recompile
	unexpected bool
}

func diffSides(a *triage.Analysis) map[string]*diffSide {
	out := map[string]*diffSide{}
	for i := range a.Findings {
		f := &a.Findings[i]
		if !slices.Contains(findings.DiffKindOrder, f.Kind) {
			continue
		}
		k := f.CompareKey()
		s := out[k]
		if s == nil {
			s = &diffSide{first: f, perRank: map[int]int{}, sites: map[string]bool{}}
			out[k] = s
		}
		if st := findings.SiteOf(f); st != "" {
			s.sites[st] = true
		}
		s.fnSite = s.fnSite || f.FnSite
		s.unexpected = s.unexpected || !f.Expected
		s.total += f.Records
		for r, st := range f.RankStats {
			s.perRank[r] += st.N
		}
	}
	return out
}

// RankAgreementChange is how the ranks' agreement went from A to B.
type RankAgreementChange struct {
	Change string `json:"change"` // gone, new, still, unknown
	Before string `json:"before"` // A's rank agreement in words
	After  string `json:"after"`  // B's
}

// rankAgreementChange: where either side's ranks disagreed, what became of it (a rank fix's diff says the
// disagreement is gone, not only that one rank's break is).
func rankAgreementChange(a, b *triage.Analysis) *RankAgreementChange {
	ra, rb := a.RankAgreement, b.RankAgreement
	c := &RankAgreementChange{Before: ra.Summary, After: rb.Summary}
	if c.After == "" {
		c.After = rb.NotCompared
	}
	switch {
	case ra.Disagree() && rb.Agree:
		c.Change = "gone"
	case ra.Disagree() && rb.Disagree():
		c.Change = "still"
	case ra.Disagree():
		c.Change = "unknown"
	case rb.Disagree() && ra.Agree:
		c.Change = "new"
	default:
		return nil
	}
	return c
}

// Text is the change in one line: "the ranks' disagreement is gone: A rank 0 differs from rank 1: … · B all 2
// ranks agree (0,1)".
func (c RankAgreementChange) Text() string {
	lead := map[string]string{"gone": "the ranks' disagreement is gone", "new": "the ranks now disagree",
		"still": "the ranks still disagree", "unknown": "whether the ranks' disagreement is gone is not known (B's ranks were not compared)"}[c.Change]
	return lead + ": A " + c.Before + " · B " + c.After
}

// Diff compares the findings of two analyses by compare key, per rank.
func Diff(a, b *triage.Analysis) DiffResult {
	sa, sb := diffSides(a), diffSides(b)
	keys := map[string]bool{}
	for k := range sa {
		keys[k] = true
	}
	for k := range sb {
		keys[k] = true
	}
	res := DiffResult{Items: []DiffItem{}, NotCompared: []string{}, RankAgreement: rankAgreementChange(a, b), Steady: steadyOf(a, b)}
	skip := map[findings.Kind]bool{}
	seen := map[findings.Kind]bool{} // kinds either side has items of
	for _, side := range []map[string]*diffSide{sa, sb} {
		for _, d := range side {
			seen[d.first.Kind] = true
		}
	}
	for _, k := range findings.DiffKindOrder {
		var sides []string
		if why := a.Unlogged(k); why != "" {
			sides = append(sides, "A "+why)
		}
		if why := b.Unlogged(k); why != "" {
			sides = append(sides, "B "+why)
		}
		switch {
		case len(sides) == 0:
			res.compared = append(res.compared, k)
		// only GPU runs print those, and only runs with PyTorch's accuracy check judge results: their gap is named
		// only where a side has some
		case !(gpuKinds[k] || k == findings.KindAccuracy) || seen[k]:
			skip[k] = true
			res.NotCompared = append(res.NotCompared, playbooks.WordsOf(k).Items+": "+strings.Join(sides, ", "))
		}
	}
	// a side that did not complete shows nothing of what it never reached: A's items it lacks (or has fewer of)
	// are not gone, B's that A lacks (or has fewer of) are not new, when that side stopped short
	shortA, shortB := a.Unfinished(), b.Unfinished()
	for k := range keys {
		x, y := sa[k], sb[k]
		if ref := cmp.Or(x, y); skip[ref.first.Kind] {
			continue
		}
		it := DiffItem{Key: k, Ranks: []RankChange{}}
		ref := x
		switch {
		case x == nil:
			it.Change, ref, x = ChangeNew, y, &diffSide{perRank: map[int]int{}}
		case y == nil:
			it.Change, y = ChangeGone, &diffSide{perRank: map[int]int{}}
		}
		it.Kind, it.Title, it.Playbook, it.What = ref.first.Kind, ref.first.Title, ref.first.Playbook, ref.first.What
		if it.Kind == findings.KindRecompile {
			it.Title = "recompiles of " + findings.FnDisplay(ref.first.Function, 0) + " on " + ref.first.FirstClass() + " guards"
		}
		it.Before, it.After = x.total, y.total
		it.Expected = !x.unexpected && !y.unexpected
		it.Ranks = rankChanges(x.perRank, y.perRank)
		if it.Change == changeNothing && (it.Before != it.After || len(it.Ranks) > 0) {
			it.Change = ChangeCount
		}
		if (it.Change == changeNothing || it.Change == ChangeCount) && x.fnSite == y.fnSite { // sites of one kind
			it.From, it.To = movedSites(x.sites, y.sites)
			if it.Change == changeNothing && it.From != nil {
				it.Change = ChangeMoved
			}
		}
		switch {
		case shortB != "" && (it.Change == ChangeGone || it.Change == ChangeCount && it.After < it.Before):
			res.skippedGone = true
			continue
		case shortA != "" && (it.Change == ChangeNew || it.Change == ChangeCount && it.After > it.Before):
			res.skippedNew = true
			continue
		}
		switch it.Change {
		case ChangeNew:
			res.New++
		case ChangeGone:
			res.Gone++
		case ChangeCount:
			res.Changed++
		case ChangeMoved:
			res.Moved++
		default:
			res.Unchanged++
			continue
		}
		res.Items = append(res.Items, it)
	}
	if len(res.compared) > 0 { // a side that stopped short reached less than it would have, whether or not an item shows it
		res.skippedNew, res.skippedGone = res.skippedNew || shortA != "", res.skippedGone || shortB != ""
	}
	if res.Steady != nil {
		res.NotCompared = append(res.NotCompared, res.Steady.notCompared()...)
	}
	if res.skippedNew {
		res.NotCompared = append(res.NotCompared, "new or more: A did not complete ("+shortA+"): what it never reached is not shown")
	}
	if res.skippedGone {
		res.NotCompared = append(res.NotCompared, "gone or fewer: B did not complete ("+shortB+"): what it never reached is not shown")
	}
	order := map[string]int{ChangeNew: 0, ChangeGone: 1, ChangeMoved: 2, ChangeCount: 3}
	sort.Slice(res.Items, func(i, j int) bool {
		p, q := res.Items[i], res.Items[j]
		if order[p.Change] != order[q.Change] {
			return order[p.Change] < order[q.Change]
		}
		return p.Key < q.Key
	})
	return res
}

// rankChanges groups the ranks whose count differs by (before, after).
func rankChanges(before, after map[int]int) []RankChange {
	type pair struct{ b, a int }
	by := map[pair][]int{}
	seen := map[int]bool{}
	for r := range before {
		seen[r] = true
	}
	for r := range after {
		seen[r] = true
	}
	for r := range seen {
		if before[r] != after[r] {
			p := pair{before[r], after[r]}
			by[p] = append(by[p], r)
		}
	}
	out := make([]RankChange, 0, len(by))
	for p, rs := range by {
		sort.Ints(rs)
		var ranks []int
		for _, r := range rs {
			if r >= 0 {
				ranks = append(ranks, r)
			}
		}
		out = append(out, RankChange{Ranks: ranks, Before: p.b, After: p.a})
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].Ranks) == 0 || len(out[j].Ranks) == 0 {
			return len(out[i].Ranks) < len(out[j].Ranks)
		}
		return out[i].Ranks[0] < out[j].Ranks[0]
	})
	return out
}

// MarshalJSON writes ranks as ranges ("0,2-7"; "" for a process without rank).
func (c RankChange) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Ranks  string `json:"ranks"`
		Before int    `json:"before"`
		After  int    `json:"after"`
	}{text.ASCIIRanges(c.Ranks), c.Before, c.After})
}

// movedSites returns the sites of an item only A has and those only B has when as many moved as arrived (a
// comment above them); nil, nil otherwise: a recompile that now also happens in another resume frame did not
// move.
func movedSites(a, b map[string]bool) (from, to []string) {
	for s := range a {
		if !b[s] {
			from = append(from, s)
		}
	}
	for s := range b {
		if !a[s] {
			to = append(to, s)
		}
	}
	if len(from) == 0 || len(from) != len(to) {
		return nil, nil
	}
	slices.Sort(from)
	slices.Sort(to)
	return from, to
}
