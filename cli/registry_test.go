package cli

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/playbooks"
)

// `explain GBnnnn` shows a playbook for every GB id of PyTorch's graph-break registry: one that lists the id (a
// built-in one, else the registry's), and names the registry's when it shows another.
func TestExplainEveryRegistryGBID(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	reg := playbooks.Registry()
	if len(reg) != 561 {
		t.Fatalf("%d registry playbooks, want 561 (torch 2.14.1)", len(reg))
	}
	for _, p := range reg {
		id := p.Match.GBIDs[0]
		code, out, errOut := runCLI("explain", id, "--width", "100")
		if code != 0 || errOut != "" {
			t.Errorf("explain %s: exit %d, %s", id, code, errOut)
			continue
		}
		flat := strings.Join(strings.Fields(out), " ")
		matches := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "matches: ") {
				matches = l
				break
			}
		}
		if !strings.Contains(matches, id) || !strings.Contains(flat, p.ID) {
			t.Errorf("explain %s shows no playbook that lists the id, or does not lead to %s:\n%s", id, p.ID, out)
		}
	}
	code, out, _ := runCLI("explain", "GB6215", "--width", "100")
	out = strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Unresolved GetAttrVariable comparison", "gb-registry-6215", "from PyTorch's graph-break registry (torch 2.14.1)",
		"In PyTorch's own words", "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb6215.html"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("explain GB6215 lacks %q:\n%s", want, out)
		}
	}
	// a built-in playbook leads; PyTorch's own words are listed after it
	if code, out, _ := runCLI("explain", "GB0124", "--width", "100"); code != 0 || !strings.Contains(out, "gb-item ·") ||
		!strings.Contains(out, "PyTorch's own words for GB0124: torchtriage explain gb-registry-0124") {
		t.Errorf("explain GB0124: exit %d\n%s", code, out)
	}
}

// `playbooks QUERY` finds registry playbooks by GB id and by gb_type words.
func TestPlaybooksSearchFindsTheRegistry(t *testing.T) {
	for q, first := range map[string]string{"GB6215": "gb-registry-6215", "lstm": "gb-rnn"} { // a curated one on top
		code, out, _ := run(t, "playbooks", q)
		if lines := strings.Split(out, "\n"); code != 0 || len(lines) < 2 || !strings.HasPrefix(lines[1], first+" ") {
			t.Errorf("playbooks %s: exit %d, want %s first\n%s", q, code, first, out)
		}
	}
	if _, out, _ := run(t, "playbooks", "lstm"); !strings.Contains(out, "\ngb-registry-0014 ") { // and PyTorch's words after it
		t.Errorf("playbooks lstm: no gb-registry-0014\n%s", out)
	}
}

// A real torch 2.14.1 log (testdata/recorded/builtin-breaks): the break of GB6215, which no built-in playbook
// covers, gets PyTorch's own playbook for it; the others keep their built-in ones, deepcopy's included (GB4198 is
// a newer id of the same cause as GB0179).
func TestRealBreakWithoutABuiltinPlaybookGetsTheRegistrys(t *testing.T) {
	code, out, errOut := run(t, "report", "--format", "json", "../testdata/recorded/builtin-breaks/manybreaks.2.14.triage.log")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Findings []struct {
			Kind, Playbook, Title string
			GBID                  string   `json:"gb_id"`
			Related               []string `json:"related"`
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"GB6215": "gb-registry-6215", "GB4198": "gb-deepcopy", "GB0291": "gb-logger",
		"GB0036": "gb-dynamic-shape-op", "GB0007": "gb-skipped-function", "GB0109": "gb-data-dependent-op"}
	seen := map[string]bool{}
	for _, f := range rep.Findings {
		if f.Kind != "graph_break" {
			continue
		}
		seen[f.GBID] = true
		if f.Playbook != want[f.GBID] {
			t.Errorf("%s (%s): playbook %s, want %s", f.GBID, f.Title, f.Playbook, want[f.GBID])
		}
		if reg := "gb-registry-" + strings.TrimPrefix(f.GBID, "GB"); f.Playbook != reg && !slices.Contains(f.Related, reg) {
			t.Errorf("%s: related %v lacks PyTorch's own words, %s", f.GBID, f.Related, reg)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("breaks of %v, want those of %v", seen, want)
	}
	if _, err := os.Stat("../testdata/recorded/builtin-breaks/manybreaks.2.14.triage.log"); err != nil {
		t.Fatal(err)
	}
}
