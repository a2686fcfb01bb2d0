package tui

import (
	"regexp"
	"strings"
	"testing"
)

// At 80×24 the recommended box starts with the first thing to do, then says why.
func TestRecommendedBoxShowsTheFirstDoActionBeforeTheWhy(t *testing.T) {
	m := liveModel(t, 80, 24)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	out := plain(m)
	do, why := strings.Index(out, "Do: 1. "), strings.Index(out, "Why: ")
	if do < 0 || why < 0 || do > why {
		t.Fatalf("want 'Do: 1.' above 'Why:' in the recommended box:\n%s", out)
	}
}

// A where column too narrow for "gb_recompile.py:18" cuts the file name from the left and keeps the line number.
func TestListColumnsCutTheFileNameFromTheLeftNeverTheLineNumber(t *testing.T) {
	m := liveModel(t, 48, 24)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	out := plain(m)
	if !regexp.MustCompile(`…[a-z_]*\.py:\d+`).MatchString(out) {
		t.Fatalf("no site cut from the left (…compile.py:18):\n%s", out)
	}
	if bad := regexp.MustCompile(`\.py:\d*…|\.p…|py:…`).FindString(out); bad != "" {
		t.Fatalf("a site lost its line number (%q):\n%s", bad, out)
	}
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"gb_recompile.py:18 helper", 30, "gb_recompile.py:18 helper"},
		{"gb_recompile.py:18 helper", 22, "gb_recompile.py:18 he…"},
		{"gb_recompile.py:18 helper", 19, "gb_recompile.py:18"},
		{"gb_recompile.py:18 helper", 14, "…compile.py:18"},
		{"forward", 4, "for…"},
	} {
		if got, _ := cutSite(c.in, c.w); got != c.want {
			t.Errorf("cutSite(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}
