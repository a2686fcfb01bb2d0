package tui

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// shortPath keeps the base name of a source path (repro.py).
func shortPath(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Base(p)
}

// site is "repro.py:12".
func site(file string, line int) string {
	if file == "" {
		return ""
	}
	if line <= 0 {
		return shortPath(file)
	}
	return shortPath(file) + ":" + strconv.Itoa(line)
}

// rankList is "r0 r1" (at most max ranks, then "+N").
func rankList(ranks []int, limit int) string {
	var b strings.Builder
	for i, r := range ranks {
		if i == limit {
			fmt.Fprintf(&b, " +%d", len(ranks)-limit)
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "r%d", r)
	}
	return b.String()
}

// joinInts is "0,1,3".
func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

// clock formats an elapsed time as 0:41 or 1:02:03.
func clock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int(d.Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// plural is "1 record" / "3 records".
func plural(n int, word string) string { return report.Plural(n, word) }

// shellJoin is argv as a shell reads it back: what the command card shows can be pasted and run again.
func shellJoin(argv []string) string { return runs.ShellJoin(argv) }

// clean makes text from a log safe to draw (session.Clean: escape sequences removed, tabs expanded, other control
// characters shown as spaces).
func clean(s string) string { return session.Clean(s) }
