package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
)

// A rule value the gate cannot honour is refused with one line and exit 2: it used to vanish (a negative
// --max-graph-breaks next to another rule gated nothing on breaks; --max-compile-time 0 or -5s read "no rule
// given"), or to turn into another value (--compile-time-tolerance 0 gated at 15 %, --timeout inf at no limit).
func TestCheckRefusesRuleValuesItCannotHonour(t *testing.T) {
	log := fx("torch-2.14/gb_recompile.triage.log")
	store := t.TempDir() // a value let through would launch the repro: never into the package's directory
	cases := []struct {
		args []string
		want string // the one line on stderr
	}{
		{[]string{"--max-graph-breaks", "-3", "--no-limit-hits", log}, "--max-graph-breaks must be 0 or more"},
		{[]string{"--max-recompiles", "-1", log}, "--max-recompiles must be 0 or more"},
		{[]string{"--max-cudagraph-rerecords", "-1", log}, "--max-cudagraph-rerecords must be 0 or more"},
		{[]string{"--max-compile-time", "0", "--no-limit-hits", log}, "--max-compile-time must be more than 0"},
		{[]string{"--max-compile-skew", "0s", log}, "--max-compile-skew must be more than 0"},
		{[]string{"--max-compile-time", "-5s", log}, `"-5s" is negative`},
		{[]string{"--max-compile-time", "1e300", log}, `"1e300" is too long`},
		{[]string{"--store", store, "--max-graph-breaks", "0", "--timeout", "inf", "--", "true"}, `"inf" is too long`},
		{[]string{"--store", store, "--max-graph-breaks", "0", "--timeout", "-1", "--", "true"}, `"-1" is negative`},
		{[]string{"--max-graph-breaks", "0", "--compile-time-tolerance", "-0.1", log}, "--compile-time-tolerance must be a number 0 or more"},
		{[]string{"--max-graph-breaks", "0", "--compile-time-tolerance", "nan", log}, "--compile-time-tolerance must be a number 0 or more"},
		{[]string{"--max-graph-breaks", "0", "--compile-time-tolerance", "inf", log}, "--compile-time-tolerance must be a number 0 or more"},
		// the run's spec refuses it before the launch, as check's own usage error (it read "torchtriage: …")
		{[]string{"--store", store, "--no-compile-after-warmup", "--step-marker", "(a)(b)", "--", "true"}, "torchtriage check: --step-marker: \"(a)(b)\" has 2 groups"},
	}
	for _, c := range cases {
		code, out, errs := runCheck(t, c.args...)
		if code != exitUsage || !strings.Contains(errs, c.want) || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("check %v: code %d (want %d)\nstdout %q\nstderr %q\nwant %q", c.args, code, exitUsage, out, errs, c.want)
		}
	}
}

// --compile-time-tolerance 0 gates at 0 %, and says so: it used to gate at the default 15 %.
func TestCheckToleranceZeroIsZero(t *testing.T) {
	dir := "../testdata/compile/torch-2.14"
	base := filepath.Join(t.TempDir(), "warm.json")
	if code, _, errs := runCheck(t, filepath.Join(dir, "c01_mlp.warm.trace"), "--write-baseline", base); code != 0 {
		t.Fatalf("write baseline: %d %s", code, errs)
	}
	for tol, want := range map[string]string{"0": "tolerance 0%", "0.5": "tolerance 50%"} {
		code, out, _ := runCheck(t, filepath.Join(dir, "c01_mlp.cold.trace"), "--baseline", base, "--compile-time-tolerance", tol)
		if code != 1 || !strings.Contains(out, "[--baseline (compile time, "+want+")]") {
			t.Errorf("tolerance %s: code %d, want a failure under %q:\n%s", tol, code, want, out)
		}
	}
}

// A run is named by its number or by the name every message gives it ("run stored in …/0001-breaks"): the name
// read as a path beside the current directory ("open 0001-breaks/meta.json: no such file or directory").
func TestRunNamedByItsName(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	if code, _, errs := checkCmd(t, "--store", store, "--no-probe", "--max-graph-breaks", "0", "--", "sh", "-c", "echo hello"); code != gate.ExitNoEvidence {
		t.Fatalf("check: %d %s", code, errs)
	}
	out := filepath.Join(t.TempDir(), "pack.tar.gz")
	if code, _, errs := run(t, "bundle", "--store", store, "-o", out, "0001-breaks"); code != 0 {
		t.Errorf("bundle by name: %d %s", code, errs)
	}
	if code, _, errs := run(t, "note", "--store", store, "0001-breaks", "by name"); code != 0 {
		t.Errorf("note by name: %d %s", code, errs)
	}
	if code, _, errs := run(t, "bundle", "--store", store, "-o", out, "0009-breaks"); code != exitUsage || !strings.Contains(errs, "no run 0009-breaks in "+store) {
		t.Errorf("a name that is no run: %d %q", code, errs)
	}
}

// A run store named as an input counted every run's logs as one report: other commands, other times, their rank
// 0s merged. It is refused with one line saying how to read one run, all of them, or two side by side.
func TestReportOfARunStoreIsRefused(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	for range 2 {
		if code, _, errs := checkCmd(t, "--store", store, "--no-probe", "--max-graph-breaks", "0", "--", "sh", "-c", "echo hello"); code != gate.ExitNoEvidence {
			t.Fatalf("check: %d %s", code, errs)
		}
	}
	for _, cmd := range []string{"report", "check", "open"} {
		args := []string{store}
		if cmd == "check" {
			args = append(args, "--max-graph-breaks", "0")
		}
		code, out, errs := run(t, cmd, args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, store+" is a run store (2 runs): name one run") {
			t.Errorf("%s of the store: %d\nstdout %q\nstderr %q", cmd, code, out, errs)
		}
	}
	if code, _, errs := run(t, "report", filepath.Join(store, "0002-breaks")); code != 0 {
		t.Errorf("report of one run: %d %s", code, errs)
	}
	// two runs named one by one are two runs all the same
	one, two := filepath.Join(store, "0001-breaks"), filepath.Join(store, "0002-breaks")
	if code, _, errs := run(t, "report", one, two); code != exitUsage || !strings.Contains(errs, "are 2 runs: name one run") {
		t.Errorf("report of two runs: %d %q", code, errs)
	}
}
