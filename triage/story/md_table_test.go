package story

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The log's Markdown table says what its text says (real H100 runs, testdata/gpu-e2e): g09a's two ranks died of
// NCCL errors, which are runtime errors, not compile errors ("0 compile errors · 2 runtime errors"), and a
// single process without rank prefixes is a "single process", as its report says, not 0 ranks.
func TestStoryMarkdownErrorsAndRanks(t *testing.T) {
	store := t.TempDir()
	for _, r := range []string{"0001-cudagraphs", "0005-breaks"} {
		if out, err := exec.Command("cp", "-r", filepath.Join("..", "..", "testdata", "gpu-e2e", r), store).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	s, err := Build(store)
	if err != nil || len(s.Runs) != 2 {
		t.Fatalf("%v %+v", err, s)
	}
	if c := s.Runs[1].Counts; c == nil || c.RuntimeErrors != 2 || c.CompileErrors != 0 || c.Ranks != 2 {
		t.Fatalf("g09a counts %+v", c)
	}
	var md strings.Builder
	WriteMarkdown(&md, s)
	lines := strings.Split(md.String(), "\n")
	var head, single, nccl string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "| run |"):
			head = l
		case strings.HasPrefix(l, "| 1 |"):
			single = l
		case strings.HasPrefix(l, "| 5 |"):
			nccl = l
		}
	}
	if !strings.Contains(head, "| compile errors | runtime errors | ranks |") ||
		!strings.Contains(nccl, "| ≥0 | ≥2 | 2 |") || !strings.HasSuffix(single, "| 0 | 0 | single process |  |") {
		t.Errorf("markdown table:\n%s", md.String())
	}
}
