package playbooks

import (
	"slices"
	"strings"
	"testing"
)

// explain (Lookup) finds a playbook for every GB id of the registry, in any spelling: a built-in one that lists
// it, else the registry playbook; Get finds the registry playbook by its id.
func TestEveryRegistryGBIDResolves(t *testing.T) {
	s := mustBuiltin(t)
	for id := range readRegistry(t) {
		p := RegistryByGBID(id)
		if got, ok := s.Get(p.ID); !ok || got != p {
			t.Errorf("%s: Get(%s) does not find it", id, p.ID)
		}
		for _, key := range []string{id, strings.ToLower(id), strings.TrimLeft(strings.TrimPrefix(id, "GB"), "0")} {
			if key == "" {
				key = "0"
			}
			got, ok := s.Lookup(key)
			if !ok || !slices.Contains(got.Match.GBIDs, id) {
				t.Errorf("Lookup(%q) = %v, %v: want a playbook that lists %s", key, got, ok, id)
			}
		}
	}
	if _, ok := s.Lookup("GB9999"); ok {
		t.Error("Lookup(GB9999) found a playbook for an id torch does not have")
	}
	for _, id := range []string{"gb-registry-9999", "gb-registry-12", "gb-registry-"} {
		if p, ok := s.Get(id); ok {
			t.Errorf("Get(%q) = %s", id, p.ID)
		}
	}
}

func TestLookupAndSearchWithTheRegistry(t *testing.T) {
	s := mustBuiltin(t)
	for key, want := range map[string]string{
		"GB6215": "gb-registry-6215", "gb0124": "gb-item", "GB0014": "gb-rnn",
		"GB0025":           "gb-registry-0025", // only a by-design playbook lists it: PyTorch's words lead, not "by design"
		"GB-REGISTRY-0059": "gb-registry-0059",
	} {
		if p, ok := s.Lookup(key); !ok || p.ID != want {
			t.Errorf("Lookup(%s) = %v, want %s", key, p, want)
		}
	}
	if got := ids(s.ByGBID("GB0059")); len(got) < 3 || got[0] != "gb-print" || got[len(got)-1] != "gb-registry-0059" {
		t.Errorf("ByGBID(GB0059) = %v: the built-in ones, then PyTorch's", got)
	}
	for q, first := range map[string]string{"GB6215": "gb-registry-6215", "GB0059": "gb-print", "rnn lstm": "gb-rnn", // curated on top
		"getattrvariable comparison": "gb-registry-6215"} {
		if res := s.Search(q); len(res) == 0 || res[0].ID != first {
			t.Errorf("Search(%q) = %v, want %s first", q, ids(res[:min(5, len(res))]), first)
		}
	}
	res := ids(s.Search("GB0059"))
	if i, j := slices.Index(res, "gb-skipped-function"), slices.Index(res, "gb-registry-0059"); i < 0 || j < i {
		t.Errorf("Search(GB0059) = %v: the built-in ones before the registry's at an equal match", res)
	}
}

// A user playbook of a registry playbook's id replaces it everywhere.
func TestUserPlaybookReplacesARegistryPlaybook(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "rnn.md", strings.NewReplacer("id: team-flash-attn", "id: gb-registry-0014",
		"reasons: ['flash_attn']", "gb_ids: [GB0014]").Replace(userNew))
	s, errs := Load(dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if p, ok := s.Get("gb-registry-0014"); !ok || p.FromRegistry() {
		t.Errorf("Get = %v", p)
	}
	if p, ok := s.Lookup("GB0014"); !ok || p.FromRegistry() {
		t.Errorf("Lookup = %v", p)
	}
	if r := s.Match(Query{Kind: KindGraphBreak, GBID: "GB0014"}); r.Primary.FromRegistry() || r.Primary.ID != "gb-registry-0014" {
		t.Errorf("Match = %v", r.Primary)
	}
	if r := s.Match(Query{Kind: KindGraphBreak, GBType: "Attempted to wrap RNN, GRU, or LSTM"}); r.Primary.FromRegistry() {
		t.Errorf("Match by gb_type = %v (%s)", r.Primary, r.Primary.Source)
	}
	if res := s.Search("GB0014"); len(res) != 2 || slices.ContainsFunc(res, (*Playbook).FromRegistry) { // the user's and gb-rnn
		t.Errorf("Search = %v", ids(res))
	}
}
