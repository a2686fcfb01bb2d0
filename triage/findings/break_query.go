package findings

import (
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// breakQuery describes a break to the matcher: GB id, gb_type, and the reason, explanation, hints and developer
// debug context (2.8+ causes that share a GB id differ only there); for a break inside torch, the site's function
// and code line (2.6 DDP breaks say what they are only there).
func BreakQuery(b *report.BreakSummary) playbooks.Query {
	q := playbooks.Query{Kind: KindGraphBreak, GBID: b.GBID, GBType: b.GBType}
	// the parts joined by "\n", written as they come (thousands of breaks: no slice of parts, no "Hint: "+h), into
	// a builder of about their size (grown by doubling, it allocated twice what it kept)
	var sb strings.Builder
	n := len(b.Reason) + 1
	if s := b.Sample; s != nil && s.Break != nil {
		n += len(s.Break.Explanation) + len(s.Break.DebugContext) + 2
		for _, h := range s.Break.Hints {
			n += len("Hint: ") + len(h) + 1
		}
	}
	sb.Grow(n)
	part := func(ss ...string) {
		if sb.Len() > 0 {
			sb.WriteByte('\n')
		}
		for _, s := range ss {
			sb.WriteString(s)
		}
	}
	if !strings.HasPrefix(b.Reason, "Encountered graph break when attempting to trace") {
		part(b.Reason)
	}
	if s := b.Sample; s != nil && s.Break != nil {
		g := s.Break
		if g.Explanation != "" {
			part(g.Explanation)
		}
		for _, h := range g.Hints {
			part("Hint: ", h)
		}
		if g.DebugContext != "" {
			part(g.DebugContext)
		}
		if logparse.IsLibraryFile(b.File) {
			for i := len(g.Frames) - 1; i >= 0; i-- {
				if f := g.Frames[i]; f.File == b.File && f.Line == b.Line {
					part(modulePath(f.File), " ", f.Func, ": ", f.Code)
					break
				}
			}
		}
	}
	q.Reason = strings.TrimSpace(sb.String())
	return q
}

// modulePath turns a torch file path into its dotted module: …/torch/nn/parallel/distributed.py →
// torch.nn.parallel.distributed.
func modulePath(file string) string {
	p := strings.TrimSuffix(ShortPath(file), ".py")
	return strings.ReplaceAll(p, "/", ".")
}

// breakMatcher matches breaks to playbooks (matchPlaybook of breakQuery), remembering its last answer: the breaks
// of a chunk of findings (inParallel) mostly share one cause at many sites (thousands in a big run), whose query (its
// reason, explanation, hints and debug context: hundreds of bytes) was made and hashed again for each. Make one per
// chunk: it is not safe for several goroutines.
type BreakMatcher struct {
	Set   *playbooks.Set
	cause *report.BreakSummary // the break last matched at a site not a library's; nil before the first
	res   playbooks.Result
}

func (m *BreakMatcher) match(b *report.BreakSummary) playbooks.Result {
	if m.cause != nil && sameCause(m.cause, b) && !logparse.IsLibraryFile(b.File) {
		return m.res
	}
	res := MatchPlaybook(m.Set, BreakQuery(b))
	if !logparse.IsLibraryFile(b.File) { // the query of a library's site names its frame: no other break's
		m.cause, m.res = b, res
	}
	return res
}

// sameCause reports that a and b agree on all that breakQuery reads of a break at a site not a library's: keep the
// two in step.
func sameCause(a, b *report.BreakSummary) bool {
	if a.GBID != b.GBID || a.GBType != b.GBType || a.Reason != b.Reason {
		return false
	}
	ga, gb := sampleBreak(a), sampleBreak(b)
	if ga == nil || gb == nil {
		return ga == gb
	}
	return ga.Explanation == gb.Explanation && ga.DebugContext == gb.DebugContext && slices.Equal(ga.Hints, gb.Hints)
}

// sampleBreak is the graph break payload of b's sample, nil without one.
func sampleBreak(b *report.BreakSummary) *logparse.GraphBreak {
	if b.Sample == nil {
		return nil
	}
	return b.Sample.Break
}
