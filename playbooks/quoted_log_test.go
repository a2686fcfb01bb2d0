package playbooks

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A playbook that quotes a line naming a graph input (arg0_1: a name torch generates) quotes it as torch prints
// it: the quote occurs verbatim in a real log (testdata/fixtures). cg-rerecord-static-input once quoted
// "(input arg0_1)", which is torchtriage's own wording; torch 2.11 prints "input name: arg0_1. data pointer
// changed from A to B." (docs gpu-cuda-graphs-2.11.md §2-3; g13b).
func TestPlaybookLogQuotesOccurInFixtures(t *testing.T) {
	var logs strings.Builder
	root := filepath.Join("..", "testdata", "fixtures")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		logs.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	quote := regexp.MustCompile("`([^`\n]*\\barg\\d+_\\d+\\b[^`\n]*)`")
	checked := 0
	for _, p := range mustBuiltin(t).All() {
		for _, m := range quote.FindAllStringSubmatch(p.Body, -1) {
			checked++
			if !strings.Contains(logs.String(), m[1]) {
				t.Errorf("%s quotes %q, which no fixture log contains", p.ID, m[1])
			}
		}
	}
	if checked == 0 {
		t.Error("no playbook quotes a line with a graph input name")
	}
}
