package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
)

// ladderReal runs `torchtriage ladder FLAGS -- python3 inject_bug.py BUG` inside the realtorch root (the tool too:
// the minifier and the bisector start the root's python3), in a temporary directory with the recorded repro, and
// returns its JSON and exit status. Skipped without TORCHTRIAGE_REALTORCH and TORCHTRIAGE_REALTORCH_RUN; the three
// cases take about 10 minutes on 2.14 (go test -timeout 30m).
func ladderReal(t *testing.T, bug string, flags ...string) (ladderJSON, int, string) {
	t.Helper()
	root, runSh, dir := realTorch(t)
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "tt"), "github.com/torchtriage/torchtriage")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // it runs in the root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	src, err := os.ReadFile(testlogs.Path(t, "compile-wrong", "repro", "inject_bug.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inject_bug.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{"./tt", "ladder", "--format", "json"}, flags...), "--", "python3", "inject_bug.py", bug)
	cmd := exec.Command(runSh, args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "REALTORCH="+root, "TORCHINDUCTOR_CACHE_DIR="+filepath.Join(dir, ".inductor-cache"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var l ladderJSON
	if err := json.Unmarshal(out, &l); err != nil {
		t.Fatalf("ladder JSON: %v\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	return l, code, dir
}

type ladderJSON struct {
	Tiers []struct {
		Backend, Result, Run string
		AccuracyChecked      bool `json:"accuracy_checked"`
	}
	FirstBad        *string `json:"first_bad"`
	AccuracyChecked bool    `json:"accuracy_checked"`
	Summary         string
	Minifier        *struct {
		Repro, Reproduces, Why string
	}
	Bisector *struct {
		Method  string
		Verdict *struct {
			Found              bool
			Backend, Subsystem string
			Number             int
		}
		Why string
	}
}

func (l ladderJSON) results() string {
	var r []string
	for _, t := range l.Tiers {
		r = append(r, t.Backend+"="+t.Result)
	}
	return strings.Join(r, " ")
}

// Inductor's injected wrong relu: eager, aot_eager and aot_eager_decomp_partition pass, inductor is wrong (the
// accuracy check's AccuracyError, not a crash), the minifier's repro.py reproduces it, the bisector blames the
// lowerings, and bundle packs the minified repro.
func TestLadderRealAccuracy(t *testing.T) {
	l, code, dir := ladderReal(t, "accuracy", "--check-accuracy", "--minify", "--bisect")
	if code != exitFail || l.FirstBad == nil || *l.FirstBad != "inductor" ||
		l.results() != "eager=ok aot_eager=ok aot_eager_decomp_partition=ok inductor=wrong" || !l.Tiers[3].AccuracyChecked {
		t.Fatalf("exit %d, %s, first bad %v", code, l.results(), l.FirstBad)
	}
	if m := l.Minifier; m == nil || m.Repro == "" || m.Reproduces != "wrong" {
		t.Errorf("minifier: %+v", l.Minifier)
	}
	if b := l.Bisector; b == nil || b.Verdict == nil || !b.Verdict.Found || b.Verdict.Backend != "inductor" || b.Verdict.Subsystem != "lowerings" {
		t.Errorf("bisector: %+v", l.Bisector)
	}
	out, err := exec.Command(filepath.Join(dir, "tt"), "bundle", "-o", filepath.Join(dir, "pack.tar.gz"), l.Tiers[3].Run).CombinedOutput()
	if err != nil {
		t.Fatalf("bundle: %v\n%s", err, out)
	}
	list, _ := exec.Command("tar", "tzf", filepath.Join(dir, "pack.tar.gz")).Output()
	if !strings.Contains(string(list), "/minified/repro.py") {
		t.Errorf("the pack has no minified repro:\n%s", list)
	}
}

// The injected compile error: the tier is named and the minifier's repro reproduces the compile error.
func TestLadderRealCompileError(t *testing.T) {
	l, code, _ := ladderReal(t, "compile_error", "--minify")
	if code != exitFail || l.FirstBad == nil || *l.FirstBad != "inductor" || l.Tiers[3].Result != "compile_error" {
		t.Fatalf("exit %d, %s", code, l.results())
	}
	if m := l.Minifier; m == nil || m.Repro == "" || m.Reproduces != "compile_error" {
		t.Errorf("minifier: %+v", l.Minifier)
	}
}

// No bug: every tier passes and the ladder says so, exit 0; nothing is said of a tier not run.
func TestLadderRealClean(t *testing.T) {
	l, code, _ := ladderReal(t, "none", "--check-accuracy")
	if code != 0 || l.FirstBad != nil || l.results() != "eager=ok aot_eager=ok aot_eager_decomp_partition=ok inductor=ok" ||
		!strings.HasPrefix(l.Summary, "every tier passed") || strings.Contains(l.Summary, "not_run") {
		t.Errorf("exit %d, %s: %s", code, l.results(), l.Summary)
	}
}
