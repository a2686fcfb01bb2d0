package playbooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// registryFile is the committed copy of PyTorch's registry that registry_gen.go is generated from.
var registryFile = filepath.Join("registry", "graph_break_registry-"+RegistryTorch+".json")

// readRegistry reads the committed registry copy: GB id -> its entries, newest first.
func readRegistry(t *testing.T) map[string][]struct {
	GbType string `json:"Gb_type"`
} {
	t.Helper()
	data, err := os.ReadFile(registryFile)
	if err != nil {
		t.Fatal(err)
	}
	var reg map[string][]struct {
		GbType string `json:"Gb_type"`
	}
	if err := json.Unmarshal(data, &reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

// Every GB id of the registry has a registry playbook, titled with its gb_type and linked to the id's page.
func TestEveryRegistryGBIDHasAPlaybook(t *testing.T) {
	reg := readRegistry(t)
	if len(reg) != 561 || RegistryLen() != len(reg) {
		t.Fatalf("registry copy has %d ids, the generated data %d; torch 2.14.1's has 561", len(reg), RegistryLen())
	}
	space := regexp.MustCompile(`\s+`)
	for id, versions := range reg {
		p := RegistryByGBID(id)
		if p == nil {
			t.Errorf("%s: no registry playbook", id)
			continue
		}
		if p != RegistryByGBID(strings.ToLower(id)) {
			t.Errorf("%s: another playbook by its lower-case id", id)
		}
		if want := strings.TrimSpace(space.ReplaceAllString(versions[0].GbType, " ")); p.Title != want {
			t.Errorf("%s: title %q, want the gb_type %q", id, p.Title, want)
		}
		if src := p.Sources(); len(src) != 1 || src[0] != GBSiteURL(id) || !gbSourceRe.MatchString(src[0]) {
			t.Errorf("%s: sources %q, want its page %s", id, src, GBSiteURL(id))
		}
		if !slices.Equal(p.Match.GBIDs, []string{id}) || p.Match.GBTypes[0] != p.Title {
			t.Errorf("%s: match %+v", id, p.Match)
		}
	}
	if RegistryByGBID("GB9999") != nil || RegistryByGBType("Something new in 2.20") != nil {
		t.Error("an id or gb_type torch 2.14.1 lacks has a registry playbook")
	}
}

// A registry playbook has the sections of every playbook, marks its words as PyTorch's, keeps each hint one step
// on one line, and renders within the width.
func TestRegistryPlaybooksWellFormed(t *testing.T) {
	withHints, templated := 0, 0
	for _, p := range Registry() {
		if !idPattern.MatchString(p.ID) || !strings.HasPrefix(p.ID, RegistryPrefix) || !p.FromRegistry() {
			t.Errorf("%s: bad id or source %q", p.ID, p.Source)
		}
		if got := p.Sections(); !slices.Equal(got, RequiredSections) {
			t.Errorf("%s: sections %v", p.ID, got)
		}
		why := p.Why()
		if !strings.HasPrefix(why, "In PyTorch's own words (its graph-break registry, torch "+RegistryTorch+"): “") &&
			!strings.HasPrefix(why, "PyTorch's graph-break registry (torch "+RegistryTorch+") explains") {
			t.Errorf("%s: Why does not say whose words it is: %q", p.ID, why)
		}
		if !strings.Contains(why, "torchtriage has no playbook of its own for this break") {
			t.Errorf("%s: Why does not say it is PyTorch's fallback: %q", p.ID, why)
		}
		do := p.Do()
		if len(do) == 0 {
			t.Errorf("%s: no steps", p.ID)
		}
		for _, d := range do {
			if !strings.Contains(p.Body, "\n"+d+"\n") && !regexp.MustCompile(`\n\d+\. `+regexp.QuoteMeta(d)+`\n`).MatchString(p.Body) {
				t.Errorf("%s: step %q is not one line of the body", p.ID, d)
			}
		}
		if strings.Contains(why, "the steps are PyTorch's hints") {
			withHints++
		}
		if strings.Contains(why, "`{…}` is what PyTorch fills in") {
			templated++
		}
		if v := p.Verify(); !strings.Contains(v, p.Match.GBIDs[0]) || !strings.Contains(v, p.Title) {
			t.Errorf("%s: Verify %q names neither the id nor the gb_type", p.ID, v)
		}
		for _, line := range strings.Split(p.Body, "\n") {
			if strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "## ") {
				t.Errorf("%s: a body line reads as a heading: %q", p.ID, line)
			}
		}
		if !slices.Equal(p.Match.Kinds, []Kind{KindGraphBreak, KindCompileError}) || p.Expected() || p.Preset != "breaks" {
			t.Errorf("%s: kinds %v, category %s, preset %s", p.ID, p.Match.Kinds, p.Category, p.Preset)
		}
		for _, w := range []int{80, 40} {
			if out := Render(p, w, false); !fits(out, w) {
				t.Errorf("%s: rendering is wider than %d", p.ID, w)
			}
		}
	}
	if withHints != 561-105 || templated == 0 {
		t.Errorf("%d registry playbooks quote hints (want 456: 105 ids have none), %d have {placeholders}", withHints, templated)
	}
}

// BenchmarkRegistryBuild makes every registry playbook from the generated data (what the first search does; a
// match or explain makes one).
func BenchmarkRegistryBuild(b *testing.B) {
	for b.Loop() {
		registryCache.mu.Lock()
		registryCache.ps = [len(registryEntries)]*Playbook{}
		registryCache.mu.Unlock()
		Registry()
	}
}
