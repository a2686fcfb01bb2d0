package ladder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func scanToolsFile(t *testing.T, version, name string) Tools {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "compile-wrong", version, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tools, err := ScanTools(f)
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

// The accuracy check after aot (TORCHDYNAMO_REPRO_AFTER=aot, TORCHDYNAMO_REPRO_LEVEL=4) as 2.14 and 2.6 print it:
// the failed graph, the RMSE against fp64, the checkpoint, repro.py and the launcher torch wrote.
func TestScanToolsAccuracyAfterAOT(t *testing.T) {
	for _, v := range []string{"torch-2.14", "torch-2.6"} {
		tl := scanToolsFile(t, v, "minifier.aot_l4_accuracy.run.log")
		if !tl.AccuracyFailed || tl.After != "aot" || tl.Graph != "model__0_inference_0" || tl.AccuracySkipped {
			t.Errorf("%s: accuracy %v after %q graph %q skipped %v", v, tl.AccuracyFailed, tl.After, tl.Graph, tl.AccuracySkipped)
		}
		if tl.RMSE == nil || tl.RMSE.Result != 1.59293 || tl.RMSE.Ref != 0 || tl.RMSE.Tol != 0.001 {
			t.Errorf("%s: RMSE %+v", v, tl.RMSE)
		}
		if !strings.HasSuffix(tl.Launcher, "/minifier/minifier_launcher.py") || !strings.HasSuffix(tl.Repro, "/repro.py") ||
			len(tl.Checkpoints) != 1 || !strings.HasSuffix(tl.Checkpoints[0], "/checkpoints/10.py") {
			t.Errorf("%s: launcher %q repro %q checkpoints %q", v, tl.Launcher, tl.Repro, tl.Checkpoints)
		}
		if tl.Bisect != nil || tl.Minify != nil {
			t.Errorf("%s: no bisector or minification in a run: %+v %+v", v, tl.Bisect, tl.Minify)
		}
	}
}

// After dynamo, 2.6 catches the wrong result and names its script in the exception; 2.14's check runs into an
// exception of its own and skips the graph: nothing was checked, which is no pass.
func TestScanToolsAccuracyAfterDynamo(t *testing.T) {
	tl := scanToolsFile(t, "torch-2.6", "minifier.dynamo_l4_accuracy.run.log")
	if !tl.AccuracyFailed || tl.After != "dynamo" || !strings.HasSuffix(tl.Launcher, "minifier_launcher.py") {
		t.Errorf("2.6: %+v", tl)
	}
	tl = scanToolsFile(t, "torch-2.14", "minifier.dynamo_l4_accuracy.run.log")
	if tl.AccuracyFailed || !tl.AccuracySkipped || tl.Launcher != "" {
		t.Errorf("2.14: failed %v skipped %v launcher %q", tl.AccuracyFailed, tl.AccuracySkipped, tl.Launcher)
	}
}

// The launcher's minification (2.14, isolated: every child line behind ">>  "): 10 nodes down to 3 in 14 queries.
func TestScanToolsMinification(t *testing.T) {
	tl := scanToolsFile(t, "torch-2.14", "minifier.aot_l4_accuracy.launcher.log")
	if m := tl.Minify; m == nil || m.From != 10 || m.To != 3 || m.Queries != 14 || !m.Wrote {
		t.Errorf("minify %+v", tl.Minify)
	}
	// 2.6's launcher dies at once: it spawns `python`, which is not there
	tl = scanToolsFile(t, "torch-2.6", "minifier.aot_l4_accuracy.launcher.log")
	if tl.Minify != nil && tl.Minify.Wrote {
		t.Errorf("2.6 launcher that failed: %+v", tl.Minify)
	}
}

// The bisector's verdict from `run` (2.14) and from the Python API (both), and a lowering and a decomposition.
func TestScanToolsBisector(t *testing.T) {
	cases := []struct {
		version, log, backend, subsystem string
		number                           int
		info                             string
	}{
		{"torch-2.14", "bisector.run_accuracy.log", "inductor", "lowerings", 2, "relu"},
		{"torch-2.14", "bisector.run_bad_decomp.log", "aot_eager_decomp_partition", "decomposition", 3, "<OpOverload(op='aten.cos', overload='default')>"},
		{"torch-2.14", "bisector.api_accuracy.log", "inductor", "lowerings", 2, "relu"},
		{"torch-2.6", "bisector.api_accuracy.log", "inductor", "lowerings", 2, "relu"},
		{"torch-2.6", "bisector.api_bad_decomp.log", "aot_eager_decomp_partition", "decomposition", 3, "<OpOverload(op='aten.cos', overload='default')>"},
		{"torch-2.14", "bisector.cli_accuracy.log", "inductor", "lowerings", 2, ""}, // the manual CLI: "Debug info: not found"
		// the API over the command as a child process (the ladder on 2.6): debug_info=None
		{"torch-2.6", "bisector.api_subprocess_accuracy.log", "inductor", "lowerings", 2, ""},
	}
	for _, c := range cases {
		b := scanToolsFile(t, c.version, c.log).Bisect
		if b == nil || !b.Found || b.Backend != c.backend || b.Subsystem != c.subsystem || b.Number != c.number || b.DebugInfo != c.info {
			t.Errorf("%s %s: %+v", c.version, c.log, b)
		}
	}
	// 2.6 has no `run`: no verdict
	if b := scanToolsFile(t, "torch-2.6", "bisector.run_accuracy.log").Bisect; b != nil {
		t.Errorf("2.6 run: %+v", b)
	}
}
