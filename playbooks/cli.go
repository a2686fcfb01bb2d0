package playbooks

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/charmbracelet/x/term"
)

const playbooksUsage = `usage: torchtriage playbooks [QUERY...] [--format text|json] [--dir DIR]

Lists the playbooks (built-in plus user playbooks from DIR, default
%s), best match first when a QUERY is given (fuzzy over ids,
titles, GB ids, gb_types and bodies). Exit status: 0 found, 1 nothing matches,
2 usage error.

`

const explainUsage = `usage: torchtriage explain ID|GBnnnn [--width N] [--no-color] [--dir DIR]

Shows one playbook: by id (gb-print) or by graph-break id (GB0059). Colour is
used on a terminal unless --no-color or NO_COLOR is set. Exit status: 0 shown,
2 unknown id or usage error.

`

// CmdPlaybooks implements `torchtriage playbooks`.
func CmdPlaybooks(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("playbooks", flag.ContinueOnError)
	format := fs.String("format", "text", "output format: text or json")
	dir := fs.String("dir", DefaultUserDir(), "directory of user playbooks (*.md)")
	pos, code := parseArgs(fs, args, stdout, stderr, playbooksUsage)
	if code >= 0 {
		return code
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "playbooks: --format must be text or json, not %q\n", *format)
		return 2
	}
	set, ok := loadForCLI("playbooks", *dir, stderr)
	if !ok {
		return 1
	}
	query := strings.Join(pos, " ")
	found := set.Search(query)
	if len(found) == 0 {
		fmt.Fprintf(stderr, "playbooks: nothing matches %q\n", query)
		return 1
	}
	if *format == "json" {
		return writeJSON(found, stdout, stderr)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSEVERITY\tCATEGORY\tTITLE")
	for _, p := range found {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.ID, p.Severity, p.Category, p.Title)
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "playbooks: %v\n", err)
		return 1
	}
	return 0
}

// CmdExplain implements `torchtriage explain ID|GBnnnn`.
func CmdExplain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	width := fs.Int("width", 0, "wrap at N columns (default: terminal width, else 80)")
	noColor := fs.Bool("no-color", false, "plain text, no colour")
	dir := fs.String("dir", DefaultUserDir(), "directory of user playbooks (*.md)")
	pos, code := parseArgs(fs, args, stdout, stderr, explainUsage)
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "explain: want exactly one ID or GB id, got %d; see torchtriage explain --help\n", len(pos))
		return 2
	}
	if *width < 0 {
		fmt.Fprintf(stderr, "explain: --width must be positive, not %d\n", *width)
		return 2
	}
	set, ok := loadForCLI("explain", *dir, stderr)
	if !ok {
		return 1
	}
	key := pos[0]
	p, found := set.Lookup(key)
	if !found {
		fmt.Fprintf(stderr, "explain: no playbook or graph-break id %q; closest: %s\n",
			key, strings.Join(closestIDs(set, key, 3), ", "))
		return 2
	}
	fd, isTTY := terminal(stdout)
	w := *width
	if w == 0 {
		w = 80
		if isTTY {
			if cols, _, err := term.GetSize(fd); err == nil && cols > 0 {
				w = cols
			}
		}
	}
	color := !*noColor && os.Getenv("NO_COLOR") == "" && isTTY
	fmt.Fprint(stdout, Render(p, w, color))
	if gb := NormalizeGBID(key); gbIDPattern.MatchString(gb) {
		var others []string
		for _, o := range set.ByGBID(gb) {
			if o != p {
				others = append(others, o.ID)
			}
		}
		if len(others) > 0 {
			fmt.Fprintf(stdout, "\nAlso listing %s: %s\n", gb, strings.Join(others, ", "))
		}
	}
	return 0
}

// parseArgs parses flags that may come before or after positional arguments.
// code is -1 to continue, otherwise the exit status to return.
func parseArgs(fs *flag.FlagSet, args []string, stdout, stderr io.Writer, usage string) ([]string, int) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintf(stdout, usage, DefaultUserDir())
				fs.SetOutput(stdout)
				fs.PrintDefaults()
				return nil, 0
			}
			fmt.Fprintf(stderr, "%s: %v; see torchtriage %s --help\n", fs.Name(), err, fs.Name())
			return nil, 2
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, -1
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func loadForCLI(cmd, dir string, stderr io.Writer) (*Set, bool) {
	set, errs := Load(dir)
	for _, err := range errs {
		fmt.Fprintf(stderr, "%s: warning: %v\n", cmd, err)
	}
	if len(set.All()) == 0 {
		fmt.Fprintf(stderr, "%s: no playbooks could be loaded\n", cmd)
		return nil, false
	}
	return set, true
}

type jsonMatch struct {
	Kinds   []string `json:"kinds"`
	GBIDs   []string `json:"gb_ids"`
	GBTypes []string `json:"gb_types"`
	Reasons []string `json:"reasons"`
	Guards  []string `json:"guards"`
	Errors  []string `json:"errors"`
}

type jsonPlaybook struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Severity string    `json:"severity"`
	Category string    `json:"category"`
	Match    jsonMatch `json:"match"`
}

func writeJSON(list []*Playbook, stdout, stderr io.Writer) int {
	out := make([]jsonPlaybook, 0, len(list))
	for _, p := range list {
		m := p.Match
		out = append(out, jsonPlaybook{
			ID: p.ID, Title: p.Title, Severity: p.Severity, Category: p.Category,
			Match: jsonMatch{
				Kinds: nonNil(m.Kinds), GBIDs: nonNil(m.GBIDs), GBTypes: nonNil(m.GBTypes),
				Reasons: patterns(m.Reasons), Guards: nonNil(m.Guards), Errors: patterns(m.Errors),
			},
		})
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "playbooks: %v\n", err)
		return 1
	}
	return 0
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func terminal(w io.Writer) (uintptr, bool) {
	f, ok := w.(*os.File)
	if !ok {
		return 0, false
	}
	return f.Fd(), term.IsTerminal(f.Fd())
}
