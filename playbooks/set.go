package playbooks

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

//go:embed builtin/*.md
var builtinFS embed.FS

// Set is a loaded, read-only collection of playbooks.
type Set struct {
	all  []*Playbook // sorted by id
	byID map[string]*Playbook

	searchOnce sync.Once
	search     map[*Playbook]searchEntry // lazily built fields for Search

	memoMu sync.Mutex
	memo   map[Query]Result // Match results (match.go)
}

func newSet(list []*Playbook) *Set {
	s := &Set{byID: make(map[string]*Playbook, len(list))}
	for _, p := range list {
		s.byID[p.ID] = p
	}
	for _, p := range s.byID {
		s.all = append(s.all, p)
	}
	sort.Slice(s.all, func(i, j int) bool { return s.all[i].ID < s.all[j].ID })
	return s
}

// All returns every playbook, sorted by id.
func (s *Set) All() []*Playbook { return append([]*Playbook(nil), s.all...) }

// Get returns the playbook with this id (case-insensitive): a built-in or user playbook, or a registry playbook
// (gb-registry-0059) that no user playbook of that id replaces.
func (s *Set) Get(id string) (*Playbook, bool) {
	key := strings.ToLower(strings.TrimSpace(id))
	if p, ok := s.byID[key]; ok {
		return p, true
	}
	if n, ok := strings.CutPrefix(key, RegistryPrefix); ok && len(n) == 4 {
		if p := RegistryByGBID("GB" + n); p != nil {
			return p, true
		}
	}
	return nil, false
}

// ByGBID returns the playbooks whose gb_ids contain the graph-break id (any
// spelling NormalizeGBID accepts): the built-in and user ones first, those that
// fix it first (a by-design one fits the id only in its context: DDP's own
// wrapper), narrowest first (fewest gb ids and gb_types declared), then by id;
// last the registry playbook of the id, when the registry has it.
func (s *Set) ByGBID(gbID string) []*Playbook {
	id := NormalizeGBID(gbID)
	var out []*Playbook
	for _, p := range s.all {
		for _, g := range p.Match.GBIDs {
			if g == id {
				out = append(out, p)
				break
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Expected() != out[j].Expected() {
			return !out[i].Expected()
		}
		return breadth(out[i]) < breadth(out[j])
	})
	if p := RegistryByGBID(id); p != nil && !slices.Contains(out, s.own(p)) {
		out = append(out, s.own(p))
	}
	return out
}

// Lookup finds a playbook by id, or else by graph-break id, as `torchtriage
// explain` does: the narrowest built-in or user playbook that lists it and fixes
// it, else the registry playbook of the id (PyTorch's own words), else, for an
// id only by-design playbooks list, generic-graph_break. A GB id neither lists
// (GB9999) is not found.
func (s *Set) Lookup(key string) (*Playbook, bool) {
	if p, ok := s.Get(key); ok {
		return p, true
	}
	if !IsGBID(NormalizeGBID(key)) {
		return nil, false
	}
	ps := s.ByGBID(key)
	if len(ps) == 0 {
		return nil, false
	}
	for _, p := range ps {
		if !p.Expected() {
			return p, true
		}
	}
	// only by-design ones, which fit in their context only: the generic advice leads
	if g, ok := s.Get("generic-graph_break"); ok {
		return g, true
	}
	return ps[0], true
}

var builtinOnce = sync.OnceValues(func() ([]*Playbook, error) {
	entries, err := fs.ReadDir(builtinFS, "builtin")
	if err != nil {
		return nil, fmt.Errorf("reading embedded playbooks: %w", err)
	}
	var list []*Playbook
	var errs []error
	for _, e := range entries {
		name := path.Join("builtin", e.Name())
		data, err := builtinFS.ReadFile(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p, err := Parse(name, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p.Source = "builtin"
		list = append(list, p)
	}
	if dup := duplicateIDs(list); dup != nil {
		errs = append(errs, dup)
	}
	return list, errors.Join(errs...)
})

// Builtin returns the embedded playbooks. An error means a built-in file is
// malformed (a bug in torchtriage), the set then holds the rest.
func Builtin() (*Set, error) {
	list, err := builtinOnce()
	return newSet(list), err
}

// DefaultUserDir is $XDG_CONFIG_HOME/torchtriage/playbooks, falling back to
// ~/.config/torchtriage/playbooks; "" when neither can be determined.
func DefaultUserDir() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "torchtriage", "playbooks")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "torchtriage", "playbooks")
}

// Load returns the built-ins plus the user playbooks <userDir>/*.md, which add
// to or override built-ins by id. Each malformed user file yields one error
// (`file:line: what is wrong`) and the others still load. A missing userDir
// (or "") is not an error.
func Load(userDir string) (*Set, []error) {
	list, berr := builtinOnce()
	var errs []error
	if berr != nil {
		errs = append(errs, berr)
	}
	byID := make(map[string]*Playbook, len(list))
	for _, p := range list {
		byID[p.ID] = p
	}
	user, uerrs := loadDir(userDir)
	errs = append(errs, uerrs...)
	for _, p := range user {
		byID[p.ID] = p
	}
	merged := make([]*Playbook, 0, len(byID))
	for _, p := range byID {
		merged = append(merged, p)
	}
	s := newSet(merged)
	for _, p := range user {
		for _, r := range p.Related {
			if _, ok := s.Get(r); !ok {
				errs = append(errs, &ParseError{p.Source, p.relatedLine, fmt.Sprintf("related id %q does not exist", r)})
			}
		}
	}
	return s, errs
}

func loadDir(dir string) ([]*Playbook, []error) {
	if dir == "" {
		return nil, nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, []error{fmt.Errorf("%s: %w", dir, err)}
	}
	sort.Strings(files)
	var out []*Playbook
	var errs []error
	seen := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			errs = append(errs, &ParseError{f, 1, err.Error()})
			continue
		}
		p, err := Parse(f, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, ok := seen[p.ID]; ok {
			errs = append(errs, &ParseError{f, 1, fmt.Sprintf("id %q is already defined in %s", p.ID, prev)})
			continue
		}
		seen[p.ID] = f
		out = append(out, p)
	}
	return out, errs
}

func duplicateIDs(list []*Playbook) error {
	seen := map[string]bool{}
	var dups []string
	for _, p := range list {
		if seen[p.ID] {
			dups = append(dups, p.ID)
		}
		seen[p.ID] = true
	}
	if dups == nil {
		return nil
	}
	return fmt.Errorf("duplicate built-in playbook ids: %s", strings.Join(dups, ", "))
}

// breadth is how many gb ids and gb_types a playbook claims (smaller = narrower).
func breadth(p *Playbook) int { return len(p.Match.GBIDs) + len(p.Match.GBTypes) }
