package tui

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// feedChunks plays a fixture through a run's follower in parts, one batch per part (as a live run streams),
// cut before each of the given line numbers; the run ends with the last part when exit >= 0. after (may be nil)
// runs after each part's batch.
func feedChunks(t *testing.T, m *Model, id int, file string, exit int, cuts []int, after func(part int)) {
	t.Helper()
	data, err := os.ReadFile(testdataPath(t, file))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	start := fixedNow.Add(-41 * time.Second)
	lr := session.NewFollower(id, start)
	meta := runs.Meta{ID: id, Name: "0001-breaks", Preset: "breaks", TorchLogs: "graph_breaks,recompiles", Start: start,
		State: runs.StateRunning}
	prev := 0
	for i, c := range append(cuts, len(lines)) {
		at := start.Add(time.Duration(i+1) * time.Second)
		lr.Apply(session.Event{RunID: id, Kind: session.EventOutput, Stream: "stderr", Data: bytes.Join(lines[prev:c], nil)}, at)
		prev = c
		if c == len(lines) && exit >= 0 {
			done := meta
			done.State, done.ExitCode = runs.StateExited, &exit
			lr.Apply(session.Event{RunID: id, Kind: session.EventExited, Meta: &done, Time: at}, at)
		} else {
			lr.Flush()
		}
		b := lr.Batch(m.analyzer(), at)
		if b.Meta == nil && i == 0 {
			b.Meta = &meta
		}
		m.Update(batchMsg{b})
		if after != nil {
			after(i)
		}
	}
}

// The gb_recompile run prints its print() break first and its .item() break (high) later: the selection is the
// top-ranked finding, not the first that arrived.
func TestInitialSelectionIsTheTopRankedFindingWhileFindingsStreamIn(t *testing.T) {
	m := liveModel(t, 80, 24)
	feedChunks(t, m, 1, "gb_recompile.triage.log", 0, []int{30}, nil)
	sel := m.selected()
	if sel == nil || sel.what != ".item()" || m.focus != paneBreaks {
		t.Fatalf("selected %+v in pane %d, want .item() in the breaks pane:\n%s", sel, m.focus, plain(m))
	}
	if !strings.Contains(plain(m), "▶ .item()") || !strings.Contains(plain(m), "Tensor.item()") {
		t.Fatalf("the screen does not select and explain .item():\n%s", plain(m))
	}
}

// A run whose findings are all recompiles focuses the recompiles pane, not an empty breaks pane.
func TestInitialFocusGoesToThePaneOfTheTopFinding(t *testing.T) {
	m := liveModel(t, 80, 24)
	feedChunks(t, m, 1, "r12_limit_str.triage.log", 0, nil, nil)
	if m.focus != paneRecompiles || m.selected() == nil {
		t.Fatalf("focus %d, selected %+v: want the recompiles pane with its top finding:\n%s", m.focus, m.selected(), plain(m))
	}
	if out := plain(m); strings.Contains(out, "Select a finding") || !strings.Contains(out, "┏━ Recompiles") {
		t.Fatalf("the recommended box does not follow the top finding:\n%s", out)
	}
}

// Once the user moved the cursor, findings that stream in later do not move it.
func TestUserSelectionIsKeptWhileFindingsStreamIn(t *testing.T) {
	m := liveModel(t, 80, 24)
	data, _ := os.ReadFile(testdataPath(t, "gb_recompile.triage.log"))
	n := bytes.Count(data, []byte("\n"))
	var want *row
	feedChunks(t, m, 1, "gb_recompile.triage.log", 0, []int{n / 2, 3 * n / 4}, func(part int) {
		if part == 0 {
			press(m, "tab")
			if want = m.selected(); want == nil {
				t.Fatal("nothing selected")
			}
		}
	})
	if got := m.selected(); got == nil || got.key != want.key || m.focus != paneRecompiles {
		t.Fatalf("selection moved to %+v (pane %d), want %s", got, m.focus, want.key)
	}
}

// The DDP fixture has two by-design breaks at the same line of the user's code that differ only in gb_type: each
// row says which it is.
func TestRowsThatDifferOnlyInGbTypeSayWhatDiffers(t *testing.T) {
	m := openModel(t, 80, 24, "ddp_2ranks.ddp.log")
	out := plain(m)
	var ddp []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "DDP wrapper") {
			ddp = append(ddp, strings.TrimSpace(strings.Trim(l, "┃│▶ ")))
		}
	}
	if len(ddp) != 2 || ddp[0] == ddp[1] {
		t.Fatalf("want two DDP wrapper rows that differ, got %q:\n%s", ddp, out)
	}
	if !strings.Contains(out, "Unsupported method") || !strings.Contains(out, "Attempted to call") {
		t.Fatalf("the rows do not show their gb_types:\n%s", out)
	}
}

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
		if got, _ := cells.CutSite(c.in, c.w); got != c.want {
			t.Errorf("cutSite(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}
