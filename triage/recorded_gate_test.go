package triage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// A run that compiled nothing is no evidence: its wrapper turned torch.compile off (testdata/recorded/compile-off),
// or it ran under set_stance("force_eager") (force-eager; real 2.14.1 both). The gate exits 4, not "PASS · 0 graph
// breaks"; the report's verdict says why nothing compiled, not "steady state".
func TestGateOfARunThatCompiledNothing(t *testing.T) {
	for _, c := range []struct{ dir, why string }{
		{"compile-off", "torch.compile was off (TORCHDYNAMO_DISABLE=1)"},
		{"force-eager", "no frame was compiled (the probe counted none)"},
	} {
		dir := filepath.Join("..", "testdata", "recorded", c.dir, "runs", "0001-breaks")
		code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: 0}}, dir)
		if code != gate.ExitNoEvidence || strings.Contains(out, "PASS") || !strings.Contains(errb, c.why) {
			t.Errorf("%s: check: exit %d\nstdout %s\nstderr %s", c.dir, code, out, errb)
		}
		out = triagetest.ReportText(t, 200, dir)
		if strings.Contains(out, "steady state") || !strings.Contains(out, "Verdict: no evidence: "+c.why) {
			t.Errorf("%s: report:\n%s", c.dir, out)
		}
	}
}

// Rules that had nothing to rest on passed: --no-limit-hits and --no-compile-errors of a run that compiled
// nothing (testdata/recorded/compile-off), --max-compile-skew of one process, and --baseline whose per-frame
// compile times the run (the probe's total only) could not be compared with (testdata/recorded/baseline-compile).
// Each is no evidence now (exit 4), as --max-graph-breaks and --ranks-agree were.
func TestRulesWithNothingToRestOn(t *testing.T) {
	off := filepath.Join("..", "testdata", "recorded", "compile-off", "runs", "0001-breaks")
	for rule, o := range map[string]gate.Options{
		"--no-limit-hits":     {MaxGraphBreaks: -1, MaxRecompiles: -1, NoLimitHits: true},
		"--no-compile-errors": {MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileErrors: true},
	} {
		if code, out, errb := check(t, gate.RunOptions{Rules: o}, off); code != gate.ExitNoEvidence {
			t.Errorf("%s of a run that compiled nothing: exit %d\n%s%s", rule, code, out, errb)
		}
	}
	one := filepath.Join("..", "testdata", "recorded", "int-recompiles", "runs", "0001-breaks")
	if code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, MaxCompileSkew: time.Second}}, one); code != gate.ExitNoEvidence || !strings.Contains(errb, "fewer than two ranks") {
		t.Errorf("--max-compile-skew of one process: exit %d\n%s%s", code, out, errb)
	}
	runs := filepath.Join("..", "testdata", "recorded", "baseline-compile", "runs")
	base := filepath.Join(t.TempDir(), "base.json")
	if code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1}, WriteBaseline: base}, filepath.Join(runs, "0020-trace")); code != 0 {
		t.Fatalf("--write-baseline: exit %d\n%s%s", code, out, errb)
	}
	if code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: readBaseline(t, base)}}, filepath.Join(runs, "0008-breaks")); code != gate.ExitNoEvidence || !strings.Contains(errb, "per frame") {
		t.Errorf("--baseline without per-frame compile times: exit %d\n%s%s", code, out, errb)
	}
}

// JUnit of a gate with no evidence (a run that compiled nothing, testdata/recorded/compile-off) or of a run that did
// not complete (testdata/recorded/dist-crash): a rule that was not evaluated is a skipped case, not an empty
// (passed, in CI's eyes) one.
func TestJUnitRulesNotEvaluatedAreSkipped(t *testing.T) {
	for _, c := range []struct{ dir, why string }{
		{filepath.Join("compile-off", "runs", "0001-breaks"), "no evidence"},
		{filepath.Join("dist-crash", "runs", "0001-breaks"), "did not complete"},
	} {
		_, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: 100}, Format: "junit"}, filepath.Join("..", "testdata", "recorded", c.dir))
		i := strings.Index(out, `<testcase name="--max-recompiles=100"`)
		if i < 0 {
			t.Fatalf("%s: no rule case:\n%s", c.dir, out)
		}
		rest := out[i:]
		rest = rest[:strings.Index(rest, "</testcase>")+1]
		if !strings.Contains(rest, "<skipped") || !strings.Contains(rest, c.why) {
			t.Errorf("%s: rule case %s\n%s", c.dir, rest, out)
		}
	}
}

// A baseline written from a run records its command; a run of another command gated against it lists nothing
// it had as "improved, gone" (real 2.14.1 runs: the compile-off and force-eager recordings, two programs).
func TestBaselineOfAnotherCommand(t *testing.T) {
	base := filepath.Join(t.TempDir(), "base.json")
	silenced := filepath.Join("..", "testdata", "recorded", "unprefixed-rank-break", "runs", "0001-breaks")
	if code, _, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1}, WriteBaseline: base}, silenced); code != 0 && code != gate.ExitFailed {
		t.Fatalf("write: exit %d %s", code, errb)
	}
	if data, _ := os.ReadFile(base); !strings.Contains(string(data), `"command": "torchrun --nproc-per-node 2 --master-port 29706 preinit.py"`) {
		t.Fatalf("baseline:\n%s", data)
	}
	other := filepath.Join("..", "testdata", "recorded", "dist-crash", "runs", "0001-breaks")
	_, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: readBaseline(t, base)}, Format: "json"}, other)
	var res struct {
		Improved []string `json:"improved"`
		Notes    []string `json:"notes"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(res.Improved) != 0 || !strings.Contains(strings.Join(res.Notes, "\n"), "written from another command") {
		t.Errorf("check against another command's baseline: improved %q, notes %q", res.Improved, res.Notes)
	}
}

// readBaseline reads a baseline file as check --baseline does.
func readBaseline(t *testing.T, path string) *gate.Baseline {
	t.Helper()
	b, err := gate.ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
