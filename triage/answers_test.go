package triage_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// answersTable is testdata/answers.json: for every recorded input with something to find, the playbook a careful
// engineer would pick for its headline finding, and why.
type answersTable struct {
	LeftOut []string `json:"left_out"`
	Answers map[string]struct {
		Playbook string `json:"playbook"`
		Why      string `json:"why"`
	} `json:"answers"`
}

func readAnswers(t *testing.T) answersTable {
	t.Helper()
	data, err := os.ReadFile(testlogs.Path(t, "answers.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tab answersTable
	if err := json.Unmarshal(data, &tab); err != nil {
		t.Fatal(err)
	}
	if len(tab.Answers) < 250 {
		t.Fatalf("answers.json lists %d inputs", len(tab.Answers))
	}
	return tab
}

// Is this answer right? The headline (the report's first finding) of every recorded input names the playbook
// answers.json picks for it. Before the guard classes, fatal compile states and runtime-error classes, 58 of them
// did not: an optional dict key and a lazy buffer got generic-recompile, WON'T CONVERT no finding at all, a custom
// op without a fake kernel the backend-bisect playbook, a gloo timeout and the program's own exception generic.
func TestAnswers(t *testing.T) {
	tab := readAnswers(t)
	paths := make([]string, 0, len(tab.Answers))
	for p := range tab.Answers {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		want := tab.Answers[p]
		a := triagetest.ReportPaths(t, testlogs.Path(t, filepath.FromSlash(p)))
		got := ""
		if len(a.Findings) > 0 {
			got = a.Findings[0].Playbook
		}
		if got != want.Playbook {
			title := ""
			if len(a.Findings) > 0 {
				title = a.Findings[0].Title
			}
			t.Errorf("%s: headline %s (%q), want %s: %s", p, got, title, want.Playbook, want.Why)
		}
	}
}

// specificKinds are the finding kinds whose playbook share is measured: the ones a log's records and exceptions make.
var specificKinds = map[findings.Kind]bool{findings.KindGraphBreak: true, findings.KindRecompile: true,
	findings.KindLimitHit: true, findings.KindCudagraphSkip: true, findings.KindCompileError: true, findings.KindRuntimeError: true}

// The share of findings of kinds graph_break, recompile, limit_hit, cudagraph_skip, compile_error and
// runtime_error whose playbook is specific (not generic-<kind>), over every input answers.json names (recorded
// logs of torch 2.6.0, 2.14.1 and 2.11, and the testdata/answers repros): measured 673 of 674 (99.9 %) when the
// table was written (bench/results/2026-12-07-answers.md); it must stay at 95 % or more.
func TestSpecificPlaybookShare(t *testing.T) {
	tab := readAnswers(t)
	paths := append([]string{}, tab.LeftOut...)
	for p := range tab.Answers {
		paths = append(paths, p)
	}
	var total, specific int
	var generic []string
	for _, p := range paths {
		a := triagetest.ReportPaths(t, testlogs.Path(t, filepath.FromSlash(p)))
		n, s, g := playbookShare(a)
		total, specific = total+n, specific+s
		for _, f := range g {
			generic = append(generic, p+": "+f)
		}
	}
	share := float64(specific) / float64(max(total, 1))
	t.Logf("specific playbooks: %d of %d findings (%.1f %%)", specific, total, 100*share)
	if total < 600 || share < 0.95 {
		t.Errorf("specific playbooks: %d of %d findings (%.1f %%), want ≥ 95 %% of ≥ 600; generic:\n%s", specific, total,
			100*share, strings.Join(generic, "\n"))
	}
}

// playbookShare counts an analysis's findings of the measured kinds, those with a specific playbook, and names the
// generic ones.
func playbookShare(a *triage.Analysis) (n, specific int, generic []string) {
	for _, f := range a.Findings {
		if !specificKinds[f.Kind] {
			continue
		}
		n++
		if strings.HasPrefix(f.Playbook, "generic-") {
			generic = append(generic, fmt.Sprintf("%s %s", f.Playbook, f.Title))
			continue
		}
		specific++
	}
	return n, specific, generic
}
