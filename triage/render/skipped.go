package render

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
)

// SkippedText says which entries of the named directories were not read, and why: "skipped 2 entries that are
// not regular files: d/pipe.log (fifo), d/gone.log (dangling link)".
func SkippedText(skips []report.Skipped) string {
	what := make([]string, 0, min(len(skips), 8))
	for i, s := range skips {
		if i == 8 {
			what = append(what, fmt.Sprintf("and %d more", len(skips)-i))
			break
		}
		what = append(what, fmt.Sprintf("%s (%s)", s.Path, strings.ReplaceAll(s.Why, "_", " ")))
	}
	kind := "entries that are not regular files"
	if len(skips) == 1 {
		kind = "entry that is not a regular file"
	}
	return fmt.Sprintf("skipped %d %s: %s", len(skips), kind, strings.Join(what, ", "))
}
