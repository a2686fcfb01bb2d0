package triage_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// The ladder's minifier and bisector worked on a run: its report's wrong-result finding says what they found.
func TestAFailingRunsFindingSaysWhatTheToolsFound(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "0004-breaks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(testlogs.Path(t, "compile-wrong", "torch-2.14", "minifier.aot_l4_accuracy.run.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stderr.log"), log, 0o644); err != nil {
		t.Fatal(err)
	}
	code := 1
	if err := runs.WriteMeta(dir, runs.Meta{ID: 4, Name: "0004-breaks", Argv: []string{"python3", "inject_bug.py"}, Preset: "breaks",
		TorchLogs: "graph_breaks,recompiles", State: runs.StateExited, ExitCode: &code, Start: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	detail := func() string {
		for _, f := range triagetest.ReportPaths(t, dir).Findings {
			if f.Kind == findings.KindAccuracy {
				return f.Detail
			}
		}
		t.Fatal("no accuracy finding")
		return ""
	}
	if d := detail(); strings.Contains(d, "bisector") {
		t.Errorf("no tool ran, yet: %s", d)
	}
	if err := runs.WriteMinified(dir, runs.Minified{Repro: "repro.py", Minifier: "minified from 10 to 3 nodes in 14 queries",
		Bisector: "the bisector blames the inductor backend, subsystem `lowerings` at number 2: relu"}); err != nil {
		t.Fatal(err)
	}
	if d := detail(); !strings.Contains(d, "\nMinifier: minified from 10 to 3 nodes in 14 queries\nCompiler bisector: the bisector blames the inductor backend, subsystem `lowerings` at number 2: relu") {
		t.Errorf("detail:\n%s", d)
	}
}
