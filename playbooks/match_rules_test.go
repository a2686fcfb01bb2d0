package playbooks

import (
	"fmt"
	"slices"
	"testing"
)

const testBody = "## Why\nw\n## Do\n1. d\n## Verify\nv\n## Sources\n- https://example.org\n"

// pb builds a playbook from a match block (YAML lines indented by two spaces).
func pb(t *testing.T, id, match, related string) *Playbook {
	t.Helper()
	src := fmt.Sprintf("---\nid: %s\ntitle: T %s\nseverity: low\ncategory: fix\nmatch:\n%s\nrelated: [%s]\npreset: breaks\n---\n%s",
		id, id, match, related, testBody)
	p, err := Parse(id+".md", []byte(src))
	if err != nil {
		t.Fatalf("parse %s: %v", id, err)
	}
	return p
}

func ids(ps []*Playbook) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

func TestSpecificityOrder(t *testing.T) {
	s := newSet([]*Playbook{
		pb(t, "by-id", "  kinds: [graph_break]\n  gb_ids: [GB0001]", "missing-id, by-reason"),
		pb(t, "by-type", "  kinds: [graph_break]\n  gb_types: [\"Some Type\"]", ""),
		pb(t, "by-guard", "  kinds: [graph_break]\n  guards: [size]", ""),
		pb(t, "by-error", "  kinds: [graph_break]\n  errors: ['BoomError']", ""),
		pb(t, "by-reason", "  kinds: [graph_break]\n  reasons: ['needle']", ""),
		pb(t, "generic-graph_break", "  kinds: [graph_break]", ""),
	})
	full := Query{Kind: "graph_break", GBID: "gb0001", GBType: "some type", GuardClass: "size",
		ErrorClass: "pkg.BoomError", Reason: "a needle here"}
	r := s.Match(full)
	if r.Primary.ID != "by-id" || r.Level != LevelGBID {
		t.Fatalf("primary %s/%s, want by-id/gb_id", r.Primary.ID, r.Level)
	}
	// the primary's related list first (missing ids skipped), then the other
	// matches best first, then PyTorch's own words for the GB id (the registry
	// playbook); no duplicates, no fallback
	if got, want := ids(r.Related), []string{"by-reason", "by-type", "by-error", "by-guard", "gb-registry-0001"}; !slices.Equal(got, want) {
		t.Errorf("Related = %v, want %v", got, want)
	}
	steps := []struct {
		drop  func(*Query)
		want  string
		level string
	}{
		{func(q *Query) { q.GBID = "" }, "by-type", LevelGBType},
		{func(q *Query) { q.GBType = "" }, "by-error", LevelError}, // guard and error tie: id order
		{func(q *Query) { q.ErrorClass = "" }, "by-guard", LevelGuard},
		{func(q *Query) { q.GuardClass = "" }, "by-reason", LevelReason},
		{func(q *Query) { q.Reason = "nothing" }, "generic-graph_break", LevelFallback},
	}
	q := full
	for _, st := range steps {
		st.drop(&q)
		r := s.Match(q)
		if r.Primary.ID != st.want || r.Level != st.level {
			t.Errorf("after dropping a field: primary %s/%s, want %s/%s", r.Primary.ID, r.Level, st.want, st.level)
		}
	}
	// error text in the reason also counts as an error match
	if r := s.Match(Query{Kind: "graph_break", Reason: "raised BoomError: x"}); r.Primary.ID != "by-error" {
		t.Errorf("error pattern on Reason: primary %s, want by-error", r.Primary.ID)
	}
}

func TestKindGatesMatching(t *testing.T) {
	s := newSet([]*Playbook{
		pb(t, "breaks-only", "  kinds: [graph_break]\n  gb_ids: [GB0001]", ""),
		pb(t, "generic-recompile", "  kinds: [recompile]", ""),
		pb(t, "generic-unknown", "  kinds: [graph_break]", ""),
	})
	if r := s.Match(Query{Kind: "recompile", GBID: "GB0001"}); r.Primary.ID != "generic-recompile" || r.Level != LevelFallback {
		t.Errorf("recompile query matched %s/%s", r.Primary.ID, r.Level)
	}
	if r := s.Match(Query{Kind: "stall", GBID: "GB0001"}); r.Primary.ID != "generic-unknown" {
		t.Errorf("kind without generic-<kind>: primary %s, want generic-unknown", r.Primary.ID)
	}
	if r := newSet(nil).Match(Query{Kind: "stall"}); r.Primary != nil {
		t.Errorf("empty set produced a primary %v", r.Primary)
	}
}

func TestReasonsRefineGBIDs(t *testing.T) {
	s := newSet([]*Playbook{
		pb(t, "builtin-print", "  kinds: [graph_break]\n  gb_ids: [GB0059]\n  reasons: ['operator `print`']", ""),
		pb(t, "builtin-any", "  kinds: [graph_break]\n  gb_ids: [GB0059, GB0007]", ""),
	})
	cases := []struct {
		reason, want string
	}{
		{"does not know how to trace builtin operator `print`", "builtin-print"},
		{"does not know how to trace builtin operator `len`", "builtin-any"},
		{"", "builtin-print"}, // no text to refine with: narrower playbook wins the tie
	}
	for _, c := range cases {
		r := s.Match(Query{Kind: "graph_break", GBID: "GB0059", Reason: c.reason})
		if r.Primary.ID != c.want || r.Level != LevelGBID {
			t.Errorf("reason %q: primary %s/%s, want %s/gb_id", c.reason, r.Primary.ID, r.Level, c.want)
		}
	}
}

func TestTieBreakIsDeterministic(t *testing.T) {
	s := newSet([]*Playbook{
		pb(t, "zeta", "  kinds: [stall]\n  reasons: ['slow']", ""),
		pb(t, "alpha", "  kinds: [stall]\n  reasons: ['slow']", ""),
		pb(t, "beta", "  kinds: [stall]\n  reasons: ['slow', 'very']", ""),
	})
	for i := 0; i < 5; i++ {
		r := s.Match(Query{Kind: "stall", Reason: "slow"})
		if r.Primary.ID != "alpha" || !slices.Equal(ids(r.Related), []string{"beta", "zeta"}) {
			t.Fatalf("tie: primary %s related %v", r.Primary.ID, ids(r.Related))
		}
	}
	if r := s.Match(Query{Kind: "stall", Reason: "very slow"}); r.Primary.ID != "beta" {
		t.Errorf("more matching reasons should win the tie, got %s", r.Primary.ID)
	}
}
