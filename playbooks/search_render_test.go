package playbooks

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestSearchEmptyQueryListsAll(t *testing.T) {
	s := mustBuiltin(t)
	if got, want := ids(s.Search("  ")), ids(s.All()); !slices.Equal(got, want) {
		t.Errorf("empty query: %d results, want all %d sorted by id", len(got), len(want))
	}
}

func TestSearchByGBID(t *testing.T) {
	s := mustBuiltin(t)
	for _, gb := range []string{"GB0059", "gb0124", "GB0170"} {
		res := s.Search(gb)
		if len(res) == 0 {
			t.Fatalf("Search(%q) found nothing", gb)
		}
		if !slices.Contains(res[0].Match.GBIDs, NormalizeGBID(gb)) {
			t.Errorf("Search(%q)[0] = %s, which does not list that GB id", gb, res[0].ID)
		}
	}
	if res := s.Search("GB0059"); len(res) < 2 || res[0].ID != "gb-print" || !slices.Contains(ids(res), "gb-skipped-function") {
		t.Errorf("Search(GB0059) = %v", ids(res))
	}
}

// uniqueBodyWords returns, per built-in playbook, words that occur in its body
// only (and in no id, title, GB id or gb_type anywhere, the registry playbooks'
// included), computed from the data.
func uniqueBodyWords(s *Set) map[string]string {
	owner := map[string]string{}
	count := map[string]int{}
	heads := ""
	for _, p := range append(s.All(), Registry()...) {
		h, words := searchFields(p)
		heads += strings.ToLower(strings.Join(h, " ")) + " "
		for _, w := range words {
			count[w]++
			owner[w] = p.ID
		}
	}
	out := map[string]string{}
	for w, n := range count {
		if n == 1 && len(w) >= 8 && !strings.Contains(heads, w) && !strings.HasPrefix(owner[w], RegistryPrefix) {
			out[w] = owner[w]
		}
	}
	return out
}

func TestSearchByBodyWord(t *testing.T) {
	s := mustBuiltin(t)
	words := uniqueBodyWords(s)
	if len(words) < 20 {
		t.Fatalf("only %d distinctive body words", len(words))
	}
	for w, id := range words {
		res := s.Search(w)
		if len(res) == 0 || res[0].ID != id {
			t.Errorf("Search(%q) = %v, want %s first", w, ids(res), id)
		}
	}
	if res := s.Search("bucket_cap_mb"); len(res) == 0 || res[0].ID != "expected-ddp-optimizer" {
		t.Errorf("Search(bucket_cap_mb) = %v", ids(res))
	}
}

func TestSearchTermsAndMisses(t *testing.T) {
	s := mustBuiltin(t)
	if res := s.Search("cudagraphs cpu"); len(res) == 0 || res[0].ID != "cg-cpu-device" {
		t.Errorf("Search(cudagraphs cpu) = %v", ids(res))
	}
	if res := s.Search("recompile limit"); len(res) == 0 || !slices.Contains(ids(res[:min(3, len(res))]), "rc-limit-reached") {
		t.Errorf("Search(recompile limit) = %v", ids(res))
	}
	if res := s.Search("rcshape"); len(res) == 0 || res[0].ID != "rc-shape" {
		t.Errorf("fuzzy id Search(rcshape) = %v", ids(res))
	}
	if res := s.Search("qqzzxxj"); len(res) != 0 {
		t.Errorf("nonsense query matched %v", ids(res))
	}
	if res := s.Search("print qqzzxxj"); len(res) != 0 {
		t.Errorf("every term must match: %v", ids(res))
	}
}

func TestRenderFitsWidth(t *testing.T) {
	s := mustBuiltin(t)
	colored := 0
	for _, p := range s.All() {
		for _, w := range []int{80, 40} {
			for _, color := range []bool{false, true} {
				out := Render(p, w, color)
				for i, line := range strings.Split(out, "\n") {
					if got := ansi.StringWidth(line); got > w {
						t.Errorf("%s at %d (color %v): line %d is %d wide: %q", p.ID, w, color, i+1, got, ansi.Strip(line))
					}
				}
				plain := ansi.Strip(out)
				if !strings.Contains(alnum(plain), alnum(p.Title)) {
					t.Errorf("%s at %d (color %v): title missing", p.ID, w, color)
				}
				if !color && out != plain {
					t.Errorf("%s: color=false output has escape codes", p.ID)
				}
				if color && out != plain {
					colored++
				}
			}
		}
	}
	if colored == 0 {
		t.Error("color=true never produced styled output")
	}
}

func TestRenderPlainContent(t *testing.T) {
	s := mustBuiltin(t)
	p, _ := s.Get("gb-item")
	out := Render(p, 80, false)
	for _, want := range []string{"WHY", "DO", "VERIFY", "SOURCES", "1. Keep it a tensor", "GB0124", "verify with preset breaks"} {
		if !strings.Contains(out, want) {
			t.Errorf("plain render lacks %q:\n%s", want, out)
		}
	}
	if Render(nil, 80, true) != "" {
		t.Error("Render(nil) is not empty")
	}
	if got := Render(p, 0, false); !fits(got, 80) {
		t.Error("width 0 should mean 80")
	}
	if got := Render(p, 5, false); !fits(got, 16) {
		t.Error("tiny widths should be raised to 16")
	}
}

// alnum keeps only lower-case letters and digits, so wrapping and styling
// do not matter when looking for a text in rendered output.
func alnum(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}
