package story

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
)

// The bringup log counts what the report counts: a run that exited 0 after its program caught torch.compile's
// exception (testdata/recorded/caught-compile, real 2.6) had no process die of it, and the log read "1 compile
// error" beside the report's "compile errors 0 (1 caught)".
func TestStoryCountsACaughtCompileErrorAsTheReportDoes(t *testing.T) {
	s, err := Build(filepath.Join("..", "..", "testdata", "recorded", "caught-compile", "runs"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 1 || s.Runs[0].Counts == nil {
		t.Fatalf("runs %+v", s.Runs)
	}
	if c := s.Runs[0].Counts; c.CompileErrors != 0 || c.CompileErrorsCaught != 1 {
		t.Errorf("counts %+v", c)
	}
	var text, md bytes.Buffer
	WriteText(&text, s, triage.TextOptions{Width: 200})
	WriteMarkdown(&md, s)
	if !strings.Contains(text.String(), "0 compile errors (1 caught)") || strings.Contains(text.String(), "· 1 compile error") {
		t.Errorf("text:\n%s", text.String())
	}
	if !strings.Contains(md.String(), "| 0 (1 caught) |") {
		t.Errorf("markdown:\n%s", md.String())
	}
}
