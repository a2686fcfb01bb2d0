package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// The log view's search says which match is marked ("match 2 of N"); P hides the glog heads (level, time, pid,
// emitter: 40-75 columns) and keeps the rank prefix and the compile id; W wraps long lines instead of cutting
// them. Before, the status said only "/Recompiling (n/N)" and every line spent its first columns on the head.
func TestLogSearchCountsAndPrefixAndWrapKeys(t *testing.T) {
	m := liveModel(t, 100, 30)
	r := feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
	total := 0
	for _, l := range r.log.Lines(0, r.log.Len()) {
		if strings.Contains(l.Text, "Recompiling") {
			total++
		}
	}
	press(m, "l", "g", "/")
	for _, c := range "Recompiling" {
		press(m, string(c))
	}
	searched(m, press(m, "enter"))
	searched(m, press(m, "n"))
	if s := plain(m); !strings.Contains(s, fmt.Sprintf("/Recompiling: match 2 of %d (n/N)", total)) {
		t.Errorf("status after n lacks the match count (%d):\n%s", total, s)
	}
	searched(m, press(m, "N", "N")) // back to the first, then around to the last
	if s := plain(m); !strings.Contains(s, fmt.Sprintf("match %d of %d", total, total)) {
		t.Errorf("N from the first match should wrap to the last:\n%s", s)
	}
	line := r.log.Line(m.logv.cur).Text // "[rank0]:V1121 … torch/_dynamo/guards.py:…] [0/1] [__recompiles] Recompiling …"
	head := line[len("[rank0]:") : strings.Index(line, "] [")+2]
	press(m, "P")
	s := plain(m)
	if strings.Contains(s, head) || !strings.Contains(s, "[rank0]:[0/") || !strings.Contains(s, "log prefixes hidden (P)") {
		t.Errorf("P should hide %q and keep the rank and compile id:\n%s", head, s)
	}
	press(m, "P", "W")
	s = plain(m)
	if !strings.Contains(s, "wrapped (W)") || !regexp.MustCompile(`(?m)^ *┃ {8}[^ ]`).MatchString(s) || !strings.Contains(s, "from line ") {
		t.Errorf("W should wrap long lines onto rows without a number:\n%s", s)
	}
}
