package findings

import (
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// A graph break's identity across runs (its compare key) is what stays when lines move: the file, the function
// (resume functions folded into the function they resume), the cause (What: the playbook's label, the gb_type
// or the normalised reason) and the source text of the break line as the log prints it under `File "…", line N`,
// with its comment and spacing left out. Adding a comment above a break moves it, it does not make it new.
// When the log does not print the source line (duplicate-suppressed stacks only, some old forms) the line stays
// in the key: two breaks of one cause in one function must not merge.

// breakIdentity is the compare key of a break finding; lineKey is the key of baselines written before
// identities (site with its line).
func breakIdentity(f *Finding, b *report.BreakSummary) (key, lineKey string) {
	lineKey = f.ID // graph_break:site:what, set by breakFinding
	code := sourceIdentity(breakCode(b))
	if code == "" {
		return lineKey, lineKey
	}
	fn, _ := guard.FoldFunction(b.Function)
	if fn == "" {
		fn = f.Function
	}
	return "graph_break:" + ShortPath(b.File) + ":" + fn + ":" + f.What + ":" + code, lineKey
}

// breakCode is the source line of the break site as the log printed it, or "".
func breakCode(b *report.BreakSummary) string {
	if b.Sample == nil || b.Sample.Break == nil {
		return ""
	}
	fr := b.Sample.Break.Frames
	for i := len(fr) - 1; i >= 0; i-- {
		if fr[i].File == b.File && fr[i].Line == b.Line {
			return fr[i].Code
		}
	}
	return ""
}

// sourceIdentity is a line of Python without its trailing comment, with runs of spaces collapsed.
func sourceIdentity(code string) string {
	var quote byte
	for i := 0; i < len(code); i++ {
		switch c := code[i]; {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			code = code[:i]
		}
	}
	// Fields drops the spaces TrimSpace does: a line whose words are one space apart is kept, not copied
	return text.Collapsed(strings.TrimSpace(code))
}

// siteOf is where a finding points, as diff shows a move: "r05_dist_c10d.py:10"; "" without a file.
func SiteOf(f *Finding) string {
	if f.File == "" {
		return ""
	}
	if f.Line == 0 {
		return ShortPath(f.File)
	}
	return ShortPath(f.File) + ":" + strconv.Itoa(f.Line)
}

// lineKey is the key a baseline written before identities (schema v1 without "identity") has for f.
func (f *Finding) LineKey() string {
	if f.oldKey != "" {
		return f.oldKey
	}
	return f.CompareKey()
}
