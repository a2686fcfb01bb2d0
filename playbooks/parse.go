package playbooks

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// RequiredSections are the "## " sections every playbook body must have.
var RequiredSections = []string{"Why", "Do", "Verify", "Sources"}

// ParseError is a problem in one playbook file, reported as `file:line: msg`.
// Line is the line of the offending front-matter key (or item), or 1.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

var (
	idPattern   = regexp.MustCompile(`^[a-z0-9]+(?:[-_][a-z0-9]+)*$`)
	gbIDPattern = regexp.MustCompile(`^GB[0-9]{4}$`)
	yamlLineRe  = regexp.MustCompile(`line (\d+)`)
)

// Parse reads one playbook: `---` front matter (strict YAML: unknown keys are
// an error), `---`, then the Markdown body. file names the source in errors.
func Parse(file string, data []byte) (*Playbook, error) {
	fm, body, err := splitFrontMatter(file, data)
	if err != nil {
		return nil, err
	}
	p := &Playbook{Body: body, Source: file}
	if err := decodeFrontMatter(file, fm, p); err != nil {
		return nil, err
	}
	if err := checkPlaybook(file, p); err != nil {
		return nil, err
	}
	return p, nil
}

// splitFrontMatter returns the front matter (file lines 2..n) and the body.
func splitFrontMatter(file string, data []byte) ([]byte, string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return nil, "", &ParseError{file, 1, "missing front matter: the file must start with a `---` line"}
	}
	for i := 1; i < len(lines); i++ {
		if t := strings.TrimRight(lines[i], " \t"); t == "---" || t == "..." {
			fm := strings.Join(lines[1:i], "\n")
			body := strings.Trim(strings.Join(lines[i+1:], "\n"), "\n") + "\n"
			return []byte(fm), body, nil
		}
	}
	return nil, "", &ParseError{file, 1, "front matter is not closed: no second `---` line"}
}

type fmDecoder struct {
	file string
	seen map[string]bool
}

func (d *fmDecoder) errf(n *yaml.Node, format string, args ...any) error {
	line := 1
	if n != nil && n.Line > 0 {
		line = n.Line + 1 // front matter starts on file line 2
	}
	return &ParseError{d.file, line, fmt.Sprintf(format, args...)}
}

func decodeFrontMatter(file string, fm []byte, p *Playbook) error {
	d := &fmDecoder{file: file, seen: map[string]bool{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(fm, &doc); err != nil {
		line, msg := 1, strings.TrimPrefix(err.Error(), "yaml: ")
		if m := yamlLineRe.FindStringSubmatchIndex(msg); m != nil {
			n, _ := strconv.Atoi(msg[m[2]:m[3]])
			line, msg = n+1, strings.TrimPrefix(msg[:m[0]]+msg[m[1]:], ": ")
		}
		return &ParseError{file, line, "front matter is not valid YAML: " + msg}
	}
	if len(doc.Content) == 0 {
		return &ParseError{file, 1, "front matter is empty"}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return d.errf(root, "front matter must be a mapping of keys to values")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if err := d.topKey(k, v, p); err != nil {
			return err
		}
	}
	for _, key := range []string{"id", "title", "severity", "category", "match", "preset"} {
		if !d.seen[key] {
			return &ParseError{file, 1, fmt.Sprintf("missing required key %q", key)}
		}
	}
	return nil
}

func (d *fmDecoder) once(k *yaml.Node, scope string) error {
	key := scope + k.Value
	if d.seen[key] {
		return d.errf(k, "duplicate key %q", k.Value)
	}
	d.seen[key] = true
	return nil
}

func (d *fmDecoder) topKey(k, v *yaml.Node, p *Playbook) error {
	if err := d.once(k, ""); err != nil {
		return err
	}
	var err error
	switch k.Value {
	case "id":
		p.ID, err = d.str(k, v)
		if err == nil && !idPattern.MatchString(p.ID) {
			err = d.errf(k, "id %q is not kebab-case (lower-case letters, digits, '-')", p.ID)
		}
	case "title":
		p.Title, err = d.str(k, v)
	case "severity":
		p.Severity, err = d.oneOf(k, v, Severities)
	case "category":
		p.Category, err = d.oneOf(k, v, Categories)
	case "preset":
		p.Preset, err = d.oneOf(k, v, Presets)
	case "related":
		p.Related, err = d.list(k, v)
		p.relatedLine = k.Line + 1
	case "match":
		err = d.match(k, v, &p.Match)
	default:
		err = d.errf(k, "unknown key %q (allowed: id, title, severity, category, match, related, preset)", k.Value)
	}
	return err
}

func (d *fmDecoder) match(k, v *yaml.Node, m *Match) error {
	if v.Kind != yaml.MappingNode {
		return d.errf(k, "match must be a mapping (kinds, gb_ids, gb_types, reasons, guards, errors)")
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		mk, mv := v.Content[i], v.Content[i+1]
		if err := d.once(mk, "match."); err != nil {
			return err
		}
		var err error
		switch mk.Value {
		case "kinds":
			var names []string
			names, err = d.listOf(mk, mv, kindNames())
			for _, n := range names {
				m.Kinds = append(m.Kinds, Kind(n))
			}
		case "guards":
			m.Guards, err = d.listOf(mk, mv, GuardClasses)
		case "gb_types":
			m.GBTypes, err = d.list(mk, mv)
		case "gb_ids":
			m.GBIDs, err = d.gbIDs(mk, mv)
		case "reasons":
			m.Reasons, err = d.regexps(mk, mv)
		case "errors":
			m.Errors, err = d.regexps(mk, mv)
		default:
			err = d.errf(mk, "unknown match key %q (allowed: kinds, gb_ids, gb_types, reasons, guards, errors)", mk.Value)
		}
		if err != nil {
			return err
		}
	}
	if len(m.Kinds) == 0 {
		return d.errf(k, "match.kinds is required (one or more of %s)", strings.Join(kindNames(), ", "))
	}
	return nil
}

func (d *fmDecoder) str(k, v *yaml.Node) (string, error) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return "", d.errf(k, "%s must be a single value", k.Value)
	}
	s := strings.TrimSpace(v.Value)
	if s == "" {
		return "", d.errf(k, "%s is empty", k.Value)
	}
	return s, nil
}

func (d *fmDecoder) oneOf(k, v *yaml.Node, allowed []string) (string, error) {
	s, err := d.str(k, v)
	if err != nil {
		return "", err
	}
	if !slices.Contains(allowed, s) {
		return "", d.errf(k, "%s %q is not one of %s", k.Value, s, strings.Join(allowed, ", "))
	}
	return s, nil
}

func (d *fmDecoder) items(k, v *yaml.Node) ([]*yaml.Node, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, d.errf(k, "%s must be a list, e.g. %s: [a, b]", k.Value, k.Value)
	}
	for _, it := range v.Content {
		if it.Kind != yaml.ScalarNode || strings.TrimSpace(it.Value) == "" {
			return nil, d.errf(it, "%s: every item must be a non-empty string", k.Value)
		}
	}
	return v.Content, nil
}

func (d *fmDecoder) list(k, v *yaml.Node) ([]string, error) {
	its, err := d.items(k, v)
	out := make([]string, 0, len(its))
	for _, it := range its {
		out = append(out, strings.TrimSpace(it.Value))
	}
	return out, err
}

func (d *fmDecoder) listOf(k, v *yaml.Node, allowed []string) ([]string, error) {
	its, err := d.items(k, v)
	out := make([]string, 0, len(its))
	for _, it := range its {
		s := strings.TrimSpace(it.Value)
		if !slices.Contains(allowed, s) {
			return nil, d.errf(it, "%s: %q is not one of %s", k.Value, s, strings.Join(allowed, ", "))
		}
		out = append(out, s)
	}
	return out, err
}

func (d *fmDecoder) gbIDs(k, v *yaml.Node) ([]string, error) {
	its, err := d.items(k, v)
	out := make([]string, 0, len(its))
	for _, it := range its {
		id := NormalizeGBID(it.Value)
		if !gbIDPattern.MatchString(id) {
			return nil, d.errf(it, "gb_ids: %q is not a graph-break id like GB0059", it.Value)
		}
		out = append(out, id)
	}
	return out, err
}

func (d *fmDecoder) regexps(k, v *yaml.Node) ([]*regexp.Regexp, error) {
	its, err := d.items(k, v)
	out := make([]*regexp.Regexp, 0, len(its))
	for _, it := range its {
		re, cerr := regexp.Compile(it.Value)
		if cerr != nil {
			return nil, d.errf(it, "%s: bad regexp %q: %v", k.Value, it.Value, cerr)
		}
		out = append(out, re)
	}
	return out, err
}

// NormalizeGBID upper-cases a graph-break id and pads bare numbers:
// "gb0059", "GB0059" and "59" all become "GB0059".
func NormalizeGBID(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	digits := strings.TrimPrefix(s, "GB")
	if n, err := strconv.Atoi(digits); err == nil && n >= 0 && len(digits) <= 4 {
		return fmt.Sprintf("GB%04d", n)
	}
	return s
}

// checkPlaybook validates what the front matter alone cannot.
func checkPlaybook(file string, p *Playbook) error {
	if !p.IsGeneric() && !p.Match.HasCriteria() {
		return &ParseError{file, 1, "match needs gb_ids, gb_types, reasons, guards or errors besides kinds " +
			"(only generic-<kind> fallbacks may match on kind alone)"}
	}
	have := p.Sections()
	for _, want := range RequiredSections {
		if !slices.ContainsFunc(have, func(h string) bool { return strings.EqualFold(h, want) }) {
			return &ParseError{file, 1, fmt.Sprintf("body has no \"## %s\" section (needed: %s)",
				want, strings.Join(RequiredSections, ", "))}
		}
	}
	return nil
}

// IsGBID reports whether s is a graph-break id in its normal form ("GB0059"; see NormalizeGBID).
func IsGBID(s string) bool { return gbIDPattern.MatchString(s) }
