package triage

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

func AnalyzeFiles(t testing.TB, paths ...string) *Analysis {
	t.Helper()
	for i, p := range paths {
		if !filepath.IsAbs(p) {
			paths[i] = filepath.Join(Fixtures, p)
		}
	}
	rep, _, err := BuildReport(paths, nil)
	if err != nil {
		t.Fatal(err)
	}
	set, err := playbooks.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return Analyze(rep, set, nil)
}

func FindingsOf(a *Analysis, kind findings.Kind) []findings.Finding {
	var out []findings.Finding
	for _, f := range a.Findings {
		if f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

// TestFindingsOverAllFixtures checks, for every fixture, that findings agree with the counts contract and are
// well formed: one break finding per distinct break, recompile and limit-hit records all accounted for, every
// finding with exactly one existing playbook, valid severity and category, unique ids, sorted by impact.
func TestFindingsOverAllFixtures(t *testing.T) {
	set, err := playbooks.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range ExpectedNames(LoadExpected(t)) {
		a := AnalyzeFiles(t, name)
		c := a.Report.Counts
		var recs, limits, errs, runtime int
		for _, f := range FindingsOf(a, findings.KindRecompile) {
			recs += f.Records
			if len(f.Classes) == 0 {
				t.Errorf("%s: recompile %s has no classified guard", name, f.ID)
			}
		}
		for _, f := range FindingsOf(a, findings.KindLimitHit) {
			limits += f.Records
		}
		for _, f := range FindingsOf(a, findings.KindCompileError) {
			errs += f.Records
		}
		for _, f := range FindingsOf(a, findings.KindRuntimeError) {
			runtime += f.Records
		}
		if n := len(FindingsOf(a, findings.KindGraphBreak)); n != c.GraphBreaks {
			t.Errorf("%s: %d break findings, counts say %d", name, n, c.GraphBreaks)
		}
		if recs != c.Recompiles || limits != c.RecompileLimitHits || errs != c.CompileErrors || runtime != c.RuntimeErrors {
			t.Errorf("%s: findings hold %d recompiles, %d limit hits, %d compile errors, %d runtime errors; counts %+v",
				name, recs, limits, errs, runtime, c)
		}
		ids := map[string]bool{}
		for i, f := range a.Findings {
			if ids[f.ID] {
				t.Errorf("%s: duplicate id %s", name, f.ID)
			}
			ids[f.ID] = true
			if _, ok := set.Get(f.Playbook); !ok {
				t.Errorf("%s: %s has playbook %q that does not exist", name, f.ID, f.Playbook)
			}
			if _, ok := findings.SeverityRank[f.Severity]; !ok || (f.Category != findings.CategoryFix && f.Category != findings.CategoryConsider && f.Category != findings.CategoryExpected) {
				t.Errorf("%s: %s severity %q category %q", name, f.ID, f.Severity, f.Category)
			}
			if f.Expected != (f.Category == findings.CategoryExpected) && f.Kind != findings.KindRecompile {
				t.Errorf("%s: %s expected=%v but category %s", name, f.ID, f.Expected, f.Category)
			}
			if f.Title == "" || f.What == "" || f.Related == nil {
				t.Errorf("%s: %s incomplete: %+v", name, f.ID, f)
			}
			if i > 0 && findings.SevRank(a.Findings[i-1].Severity) > findings.SevRank(f.Severity) {
				t.Errorf("%s: findings not sorted by severity at %d", name, i)
			}
		}
		if len(a.Report.Ranks) > 1 && a.RankAgreement.Summary == "" {
			t.Errorf("%s: no rank-agreement summary", name)
		}
	}
}

// The r05 capture: only rank 0 has the print break and the recompile of the resumed frame (2.6 and 2.14, text
// and trace).
func TestR05RankZeroExtraBreakAndRecompile(t *testing.T) {
	for _, name := range []string{"torch-2.6/r05_dist_c10d.triage.log", "torch-2.14/r05_dist_c10d.triage.log",
		"torch-2.6/r05_dist_c10d.verbose.log", "torch-2.14/r05_dist_c10d.trace"} {
		a := AnalyzeFiles(t, name)
		ra := a.RankAgreement
		if ra.Agree || len(ra.Groups) != 2 {
			t.Fatalf("%s: want two groups, got %+v", name, ra)
		}
		ref, other := ra.Groups[0], ra.Groups[1]
		if len(ref.Ranks) != 1 || ref.Ranks[0] != 1 || len(other.Ranks) != 1 || other.Ranks[0] != 0 {
			t.Fatalf("%s: reference %v, other %v; want rank 1 as reference and rank 0 differing", name, ref.Ranks, other.Ranks)
		}
		if len(other.Extra) != 2 || len(other.Missing) != 0 ||
			!strings.HasPrefix(other.Extra[0], "graph break print() at r05_dist_c10d.py:10") ||
			!strings.HasPrefix(other.Extra[1], "recompile of step (after line 10), size mismatch y[0] 4→8") {
			t.Errorf("%s: extra %q missing %q", name, other.Extra, other.Missing)
		}
		if other.FirstDivergent[0] != "0/0" {
			t.Errorf("%s: first divergent %v, want rank 0 at 0/0 (the print break)", name, other.FirstDivergent)
		}
		want := "rank 0 differs from rank 1: extra graph break print() at r05_dist_c10d.py:10, extra recompile of step (after line 10), size mismatch y[0] 4→8"
		if ra.Summary != want {
			t.Errorf("%s: summary\n %q\nwant %q", name, ra.Summary, want)
		}
		top := a.Findings[0]
		if top.Kind != findings.KindRankDisagreement || top.Severity != "high" || top.Playbook != "dist-rank-divergent-graphs" || len(top.Ranks) != 1 || top.Ranks[0] != 0 {
			t.Errorf("%s: top finding %+v", name, top)
		}
		if a.Verdict.Steady {
			t.Errorf("%s: verdict steady", name)
		}
		br := FindingsOf(a, findings.KindGraphBreak)
		if len(br) != 1 || br[0].What != "print()" || br[0].Function != "step" || br[0].Line != 10 || !br[0].InRecompilingFrame {
			t.Errorf("%s: break %+v", name, br)
		}
		for _, f := range FindingsOf(a, findings.KindRecompile) {
			if !f.Expected || f.Category != findings.CategoryExpected || f.Classes[0].Class != "size" {
				t.Errorf("%s: recompile %s should be automatic dynamic's expected first: %+v", name, f.ID, f)
			}
		}
	}
}

func TestGbRecompileClassesAndLimit(t *testing.T) {
	for _, name := range []string{"torch-2.6/gb_recompile.triage.log", "torch-2.14/gb_recompile.triage.log", "torch-2.14/gb_recompile.recompiles_verbose.log"} {
		a := AnalyzeFiles(t, name)
		byID := map[string]findings.Finding{}
		for _, f := range a.Findings {
			byID[f.ID] = f
		}
		want := map[string]struct {
			class, playbook string
			expected, limit bool
		}{
			// a float argument's and a .item() float's first change are automatic dynamic's (specialize_float is
			// False: the 2.14.1 logs mark L['scale'] and L['___stack0'] dynamic after them)
			"recompile:gb_recompile.py:f:value_float:scale":        {"value_float", "rc-value-float", true, false},
			"recompile:gb_recompile.py:f:stack_float:___stack0@18": {"stack_float", "rc-stack-float", true, true},
			"recompile:gb_recompile.py:f:value_str:mode@18":        {"value_str", "rc-value-str-bool", false, true},
			"recompile:gb_recompile.py:f:size:x":                   {"size", "rc-shape", true, false},
			"recompile:gb_recompile.py:f:size:x@18":                {"size", "rc-shape", true, true},
			"recompile:gb_recompile.py:f:size:___stack0@17":        {"size", "rc-shape", true, false},
			"recompile:gb_recompile.py:helper:size:x@12":           {"size", "rc-shape", true, false},
		}
		for id, w := range want {
			f, ok := byID[id]
			if !ok {
				t.Errorf("%s: no finding %s", name, id)
				continue
			}
			if f.Classes[0].Class != w.class || f.Playbook != w.playbook || f.Expected != w.expected || f.LimitHit != w.limit {
				t.Errorf("%s: %s = class %s playbook %s expected %v limit %v; want %+v", name, id, f.Classes[0].Class, f.Playbook, f.Expected, f.LimitHit, w)
			}
			if w.limit && !w.expected && (f.Severity != "high" || f.Category != findings.CategoryFix) {
				t.Errorf("%s: %s hit the limit but is %s/%s", name, id, f.Severity, f.Category)
			}
		}
		lim := FindingsOf(a, findings.KindLimitHit)
		if len(lim) != 1 || lim[0].Function != "f" || lim[0].Line != 18 || !strings.Contains(lim[0].Title, "after this the frame runs eager") {
			t.Errorf("%s: limit findings %+v", name, lim)
		}
		cats := map[string]string{}
		for _, f := range FindingsOf(a, findings.KindGraphBreak) {
			cats[f.What] = f.Playbook + "/" + f.Category
		}
		if name != "torch-2.14/gb_recompile.recompiles_verbose.log" {
			wantCats := map[string]string{".item()": "gb-item/fix", "print()": "gb-print/fix", "dynamic-shape op": "gb-dynamic-shape-op/fix"}
			for k, v := range wantCats {
				if cats[k] != v {
					t.Errorf("%s: break %s = %s, want %s (all: %v)", name, k, cats[k], v, cats)
				}
			}
		}
	}
}

func TestByDesignBreaks(t *testing.T) {
	for _, name := range []string{"torch-2.6/ddp_2ranks.ddp.log", "torch-2.14/ddp_2ranks.ddp.log"} {
		a := AnalyzeFiles(t, name)
		var expected, fix int
		for _, f := range FindingsOf(a, findings.KindGraphBreak) {
			if strings.Contains(f.ID, "distributed.py") || strings.Contains(f.ID, "contextlib.py") {
				if !f.Expected || f.Category != findings.CategoryExpected || f.Playbook != "expected-ddp-wrapper" || f.Severity != "info" {
					t.Errorf("%s: DDP break %s not by design: %+v", name, f.ID, f)
				}
				expected++
			} else {
				fix++
			}
		}
		if expected == 0 || fix != 1 {
			t.Errorf("%s: %d by-design and %d other breaks", name, expected, fix)
		}
	}
	// 2.14: the break inside torch/nn/parallel/distributed.py points at the user's line that reached it
	a := AnalyzeFiles(t, "torch-2.14/ddp_2ranks.ddp.log")
	for _, f := range FindingsOf(a, findings.KindGraphBreak) {
		if strings.Contains(f.ID, "torch/nn/parallel/distributed.py:1758") && (f.File != "/root/repro/ddp_repro.py" || f.Line != 22) {
			t.Errorf("DDP break points at %s:%d, want the user's ddp_repro.py:22", f.File, f.Line)
		}
	}
	// explicit torch._dynamo.graph_break() (tlparse restart reason): by design, and the verdict is steady
	a = AnalyzeFiles(t, "tlparse/comp_metrics.log")
	br := FindingsOf(a, findings.KindGraphBreak)
	if len(br) != 1 || br[0].Playbook != "expected-explicit-graph-break" || !br[0].Expected || !a.Verdict.Steady {
		t.Errorf("comp_metrics: %+v verdict %+v", br, a.Verdict)
	}
}

func TestErrorCauses(t *testing.T) {
	cases := map[string]struct{ cause, playbook string }{
		"failures/torch-2.6.torchrun-port-in-use.log":                       {"rendezvous/port error from the launcher", "dist-rendezvous-port"}, // runtime errors
		"failures/torch-2.14.unknown-torch-logs-name.log":                   {"invalid TORCH_LOGS", "err-invalid-torch-logs"},
		"failures/torch-2.6.inductor-cpp-compile-error-missing-headers.log": {"C++ toolchain", "err-cpp-toolchain"},
		"failures/torch-2.6.inductor-backend-failed-missing-setuptools.log": {"C++ toolchain", "err-cpp-toolchain"},
		"torch-2.14/r07_fullgraph.triage.log":                               {"graph break made an error (fullgraph=True or error_on_graph_break)", "err-fullgraph-unsupported"},
		"torch-2.6/r07_fullgraph.triage.log":                                {"graph break made an error (fullgraph=True or error_on_graph_break)", "err-fullgraph-unsupported"},
		"tlparse/comp_failure.log":                                          {"backend failure", "err-backend-ablation"},
	}
	for name, w := range cases {
		a := AnalyzeFiles(t, name)
		errs := append(FindingsOf(a, findings.KindCompileError), FindingsOf(a, findings.KindRuntimeError)...)
		if len(errs) != 1 || !strings.HasPrefix(errs[0].Title, w.cause+":") || errs[0].Playbook != w.playbook || errs[0].Severity != "high" {
			t.Errorf("%s: %+v, want cause %q playbook %s", name, errs, w.cause, w.playbook)
		}
	}
	if got := report.ErrorCause("torch._dynamo.exc.BackendCompilerFailed", "", "backend='inductor' raised:\nRuntimeError: ptxas fatal   : Value 'sm_100a' is not defined"); got != "Triton/ptxas toolchain" {
		t.Errorf("ptxas cause %q", got)
	}
	if got := report.ErrorCause("torch._dynamo.exc.FailOnRecompileLimitHit", "", "recompile_limit reached with fullgraph=True"); got != "the recompile limit made fatal (fail_on_recompile_limit_hit, or fullgraph=True)" {
		t.Errorf("limit cause %q", got)
	}
	if got := report.ErrorCause("KeyError", "", "'weight'"); got != "" {
		t.Errorf("unknown cause %q", got)
	}
	// launcher errors are runtime errors (the launcher died of them), not compile errors
	rep, _, err := BuildReport([]string{filepath.Join(Fixtures, "failures/torch-2.6.torchrun-port-in-use.log")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts.CompileErrors != 0 || rep.Counts.RuntimeErrors != 1 || len(rep.RuntimeErrors) != 1 ||
		rep.RuntimeErrors[0].Class != "torch.distributed.DistNetworkError" {
		t.Errorf("runtime errors %+v counts %+v", rep.RuntimeErrors, rep.Counts)
	}
}

func TestRecompileStormAndStackFloat(t *testing.T) {
	a := AnalyzeFiles(t, "torch-2.6/r12_limit_str.triage.log")
	rc := FindingsOf(a, findings.KindRecompile)
	if len(rc) != 1 || rc[0].Records != 8 || rc[0].Classes[0].Class != "value_str" || !rc[0].LimitHit || rc[0].Severity != "high" || len(rc[0].Classes) != 8 {
		t.Fatalf("r12: %+v", rc)
	}
	if rc[0].What != "str mode" || rc[0].Function != "f" {
		t.Errorf("r12 label %q fn %q", rc[0].What, rc[0].Function)
	}
	a = AnalyzeFiles(t, "torch-2.14/r02_item.triage.log")
	var stack bool
	for _, f := range FindingsOf(a, findings.KindRecompile) {
		if f.Classes[0].Class == "stack_float" {
			stack = f.Playbook == "rc-stack-float" && f.What == "float ___stack0" && f.Line == 5 && f.Function == "f"
		}
	}
	if !stack {
		t.Errorf("r02: no stack_float recompile pointing at r02_item.py:5: %+v", FindingsOf(a, findings.KindRecompile))
	}
}

// Layers pass typed fields: a recompile of a resume function carries its resume line and a 2.14 break its GB id,
// so nothing downstream parses them back out of the id or the detail text.
func TestFindingTypedFields(t *testing.T) {
	a := AnalyzeFiles(t, "torch-2.14/r05_dist_c10d.triage.log")
	var resume []int
	for _, f := range FindingsOf(a, findings.KindRecompile) {
		resume = append(resume, f.Resume)
		if f.Resume > 0 && !strings.HasSuffix(f.ID, fmt.Sprintf("@%d", f.Resume)) {
			t.Errorf("%s: resume %d not the one its id names", f.ID, f.Resume)
		}
	}
	if !slices.Contains(resume, 10) || !slices.Contains(resume, 0) {
		t.Errorf("recompile resume lines %v, want the function itself (0) and after line 10", resume)
	}
	br := FindingsOf(AnalyzeFiles(t, "torch-2.14/gb_recompile.triage.log"), findings.KindGraphBreak)
	var ids []string
	for _, f := range br {
		ids = append(ids, f.GBID)
	}
	if !slices.Contains(ids, "GB0059") || !slices.Contains(ids, "GB0124") {
		t.Errorf("graph-break ids %v, want GB0059 (print) and GB0124 (.item())", ids)
	}
}
