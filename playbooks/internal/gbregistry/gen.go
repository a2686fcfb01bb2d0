package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// rawEntry is one version of a GB id's entry as the registry writes it. The registry keeps every version of an
// entry, newest first: a GB id stays, its words are edited in place between releases.
type rawEntry struct {
	GbType      string `json:"Gb_type"`
	Context     string `json:"Context"`
	Explanation string `json:"Explanation"`
	Hints       []string
}

// entry is what the generated file holds of one GB id.
type entry struct {
	id     string   // "GB0059"
	gbType string   // the newest gb_type
	older  []string // the gb_types it had before, distinct from gbType (case-insensitively)
	why    string   // the newest explanation, readable; "" where the registry gives none
	do     []string // the newest hints, readable
}

var (
	fileVersion = regexp.MustCompile(`^graph_break_registry-([0-9][0-9A-Za-z.+-]*)\.json$`)
	gbIDRe      = regexp.MustCompile(`^GB[0-9]{4}$`)
	identRe     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)
	spaceRe     = regexp.MustCompile(`\s+`)
)

// generateFile reads the registry copy at path (its name carries the torch version) and returns the Go source.
func generateFile(path string) ([]byte, error) {
	m := fileVersion.FindStringSubmatch(filepath.Base(path))
	if m == nil {
		return nil, fmt.Errorf("%s: the name must be graph_break_registry-<torch version>.json", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	entries, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return render(entries, m[1], filepath.ToSlash(path))
}

// parse reads the registry: {"GB0000": [newest entry, older entries …], …}.
func parse(data []byte) ([]entry, error) {
	var reg map[string][]rawEntry
	if err := json.Unmarshal(data, &reg); err != nil {
		return nil, fmt.Errorf("not a graph-break registry: %w", err)
	}
	ids := make([]string, 0, len(reg))
	for id := range reg {
		if !gbIDRe.MatchString(id) {
			return nil, fmt.Errorf("%q is not a GB id like GB0059", id)
		}
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]entry, 0, len(ids))
	for _, id := range ids {
		versions := reg[id]
		if len(versions) == 0 {
			return nil, fmt.Errorf("%s has no entry", id)
		}
		e := entry{id: id, gbType: cleanType(versions[0].GbType), why: explanation(versions[0].Explanation),
			do: hints(versions[0].Hints)}
		if e.gbType == "" {
			return nil, fmt.Errorf("%s has no gb_type", id)
		}
		seen := map[string]bool{strings.ToLower(e.gbType): true}
		for _, v := range versions[1:] {
			t := cleanType(v.GbType)
			if t == "" || seen[strings.ToLower(t)] || strings.HasPrefix(t, "_") && !strings.Contains(t, " ") {
				continue // the same name, or a stray variable's name (GB0170 once had "_gb_type")
			}
			seen[strings.ToLower(t)] = true
			e.older = append(e.older, t)
		}
		out = append(out, e)
	}
	return out, nil
}

func cleanType(s string) string { return strings.TrimSpace(spaceRe.ReplaceAllString(s, " ")) }

// explanation makes the registry's explanation readable. Where the registry kept the Python expression instead
// of its text (`"Detected … " "Dynamo does not …" + trace_info`) the string literals are joined and the variables
// dropped; a variable alone (`msg`, `explanation`) is no explanation.
func explanation(s string) string {
	s = strings.TrimSpace(s)
	if identRe.MatchString(s) {
		return ""
	}
	if lits, ok := pyConcat(s); ok {
		s = strings.Join(lits, "")
	}
	return strings.TrimSpace(spaceRe.ReplaceAllString(s, " "))
}

// pyConcat reads s as a Python expression of string literals and names joined by `+` (adjacent literals join
// too), and returns the literals' text; ok is false when s is anything else (plain text that merely starts with a
// quote: `'{self.python_type_name()}' subscript is not yet supported`).
func pyConcat(s string) (lits []string, ok bool) {
	i, terms := 0, 0
	plus := true // a name needs a '+' before it (or to be first)
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		if i == len(s) {
			return lits, terms > 0 && len(lits) > 0 && !plus
		}
		switch c := s[i]; {
		case c == '+':
			if plus {
				return nil, false
			}
			plus = true
			i++
			continue
		case c == '"' || c == '\'' || (strings.ContainsRune("fFrRbBuU", rune(c)) && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\'')):
			if c != '"' && c != '\'' {
				i++
			}
			text, n, good := pyString(s[i:])
			if !good {
				return nil, false
			}
			lits, i, plus = append(lits, text), i+n, false
		default:
			if !plus {
				return nil, false
			}
			j := i
			for j < len(s) && (s[j] == '_' || s[j] == '.' || unicode.IsLetter(rune(s[j])) || unicode.IsDigit(rune(s[j]))) {
				j++
			}
			if j == i || !identRe.MatchString(s[i:j]) {
				return nil, false
			}
			i, plus = j, false
		}
		terms++
	}
}

// pyString reads one quoted literal at the start of s: its text (escapes \" \' \\ \n undone), the bytes read.
func pyString(s string) (string, int, bool) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			default:
				b.WriteByte(s[i])
			}
		case c == q:
			return b.String(), i + 1, true
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

// hints makes the registry's hints readable: one step per hint. The registry splits a hint written as several
// string fragments of one sentence into as many items ("Enable tracing of dynamic shape operators with ",
// "`torch._dynamo.config.capture_dynamic_output_shape_ops = True`"): an item that ends in white space, or a next
// one that starts with it, is continued, unless a sentence ended there and the next item starts a new one. A
// bulleted list inside a hint ("…:\n", "* `a`\n", "* `b`") becomes one line: "…: `a`, `b`".
func hints(hs []string) []string {
	var joined []string
	cur, open := "", false
	for _, h := range hs {
		if strings.TrimSpace(h) == "" {
			continue
		}
		if open && continues(cur, h) {
			cur += h
			continue
		}
		if open {
			joined = append(joined, cur)
		}
		cur, open = h, true
	}
	if open {
		joined = append(joined, cur)
	}
	out := make([]string, 0, len(joined))
	for _, h := range joined {
		if h = flatten(h); h != "" {
			out = append(out, h)
		}
	}
	return out
}

func continues(prev, next string) bool {
	if strings.HasSuffix(prev, "\n") || startsWithSpace(next) {
		return true
	}
	if !strings.HasSuffix(prev, " ") {
		return false
	}
	t := strings.TrimRight(prev, " \t")
	ended := strings.HasSuffix(t, ".") || strings.HasSuffix(t, "!") || strings.HasSuffix(t, "?")
	r := []rune(strings.TrimSpace(next))
	return !(ended && len(r) > 0 && unicode.IsUpper(r[0]))
}

func startsWithSpace(s string) bool {
	return s != "" && (s[0] == ' ' || s[0] == '\t' || s[0] == '\n')
}

// flatten puts a hint on one line: a "* item" / "- item" line joins the line before it (after ": " the first,
// after ", " the others), other lines join with a space.
func flatten(h string) string {
	var b strings.Builder
	items := 0
	for _, line := range strings.Split(h, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		item, isItem := strings.CutPrefix(line, "* ")
		if !isItem {
			item, isItem = strings.CutPrefix(line, "- ")
		}
		switch {
		case b.Len() == 0:
			b.WriteString(line)
		case isItem && items > 0:
			b.WriteString(", " + item)
		case isItem:
			b.WriteString(" " + item)
		default:
			b.WriteString(" " + line)
		}
		if isItem {
			items++
		}
	}
	return strings.TrimSpace(spaceRe.ReplaceAllString(b.String(), " "))
}

// render writes the Go source of the entries.
func render(entries []entry, torch, path string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by playbooks/internal/gbregistry from %s. DO NOT EDIT.\n\n", path)
	b.WriteString("package playbooks\n\n")
	fmt.Fprintf(&b, "// RegistryTorch is the torch release whose graph-break registry (%d GB ids) the registry playbooks come from.\n", len(entries))
	fmt.Fprintf(&b, "const RegistryTorch = %q\n\n", torch)
	b.WriteString("// registryEntries: per GB id of the registry, sorted by id, its gb_type, the gb_types it had before, its\n")
	b.WriteString("// explanation and its hints (registry.go makes playbooks of them).\n")
	b.WriteString("var registryEntries = [...]registryEntry{\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "\t{id: %q, gbType: %s", e.id, strconv.Quote(e.gbType))
		if len(e.older) > 0 {
			fmt.Fprintf(&b, ", older: %s", quoteList(e.older))
		}
		if e.why != "" {
			fmt.Fprintf(&b, ",\n\t\twhy: %s", strconv.Quote(e.why))
		}
		if len(e.do) > 0 {
			b.WriteString(",\n\t\tdo: []string{\n")
			for _, h := range e.do {
				fmt.Fprintf(&b, "\t\t\t%s,\n", strconv.Quote(h))
			}
			b.WriteString("\t\t}")
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}
