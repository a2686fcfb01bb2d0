package triage_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
)

// torch warns about distinct input sizes once, when their count first passes its limit (8 in 2.11 and 2.14.1):
// the number it prints is a floor, not how many sizes were recorded (g03 recorded 56 and printed 9;
// gpu-cuda-graphs-2.11.md §4).
func TestDistinctSizesWarningIsAFloor(t *testing.T) {
	a := triage.AnalyzeFiles(t, "torch-2.11-cuda/g03_cg_dynamic.perf.log")
	var title string
	for _, f := range a.Findings {
		if f.Kind == findings.KindGPUWarning {
			title = f.Title
		}
	}
	if !strings.Contains(title, "at least 9 distinct input sizes") || strings.Contains(title, "each of 9") {
		t.Errorf("title %q", title)
	}
}

// A log cut right after a break's "Graph Break Reason: Encountered graph break when attempting to trace CALL: …:"
// line (its gb_type and explanation follow in 2.11+) is partial, and that break is the one already seen at its
// site, not a fifth distinct one (the first 290 lines of the real g07 log).
func TestBreakCutAfterItsReasonLine(t *testing.T) {
	data, err := os.ReadFile(Fx("torch-2.11-cuda/g07_gb_recompile_mix.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if !strings.Contains(lines[289], "Graph Break Reason: Encountered graph break when attempting to trace CALL") {
		t.Fatalf("line 290 is not the reason line: %q", lines[289])
	}
	cut := filepath.Join(t.TempDir(), "cut.log")
	os.WriteFile(cut, []byte(strings.Join(lines[:290], "")), 0o644)
	full, part := triage.LoadReport(t, Fx("torch-2.11-cuda/g07_gb_recompile_mix.triage.log")), triage.LoadReport(t, cut)
	if part.Counts.GraphBreaks != full.Counts.GraphBreaks || !part.Evidence.Partial {
		t.Errorf("cut: %d distinct breaks (full %d), partial %v", part.Counts.GraphBreaks, full.Counts.GraphBreaks, part.Evidence.Partial)
	}
}

// A file's name gives the rank of its lines without a rank prefix (torchrun's per-rank files); a file whose lines
// carry their own prefixes is of those ranks, whatever its name says: "ddp_no_rank1.log", every line "[rank0]:",
// read as ranks 0 and 1, rank 1 with "0 breaks", and the ranks "disagreed".
func TestNameRankYieldsToLinePrefixes(t *testing.T) {
	data, err := os.ReadFile(Fx("torch-2.14/ddp_2ranks.ddp.log"))
	if err != nil {
		t.Fatal(err)
	}
	var rank0 []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if !strings.HasPrefix(l, "[rank1]") {
			rank0 = append(rank0, l)
		}
	}
	dir := t.TempDir()
	named := filepath.Join(dir, "ddp_no_rank1.log")
	os.WriteFile(named, []byte(strings.Join(rank0, "")), 0o644)
	if rep := triage.LoadReport(t, named); len(rep.Ranks) != 1 || rep.Ranks[0] != 0 {
		t.Errorf("ranks %v, want [0]", rep.Ranks)
	}
	// lines without a prefix take the name's rank
	plain := filepath.Join(dir, "rank3.log")
	gb, _ := os.ReadFile(Fx("torch-2.14/gb_recompile.triage.log"))
	os.WriteFile(plain, gb, 0o644)
	if rep := triage.LoadReport(t, plain); len(rep.Ranks) != 1 || rep.Ranks[0] != 3 {
		t.Errorf("ranks of rank3.log %v, want [3]", rep.Ranks)
	}
}

// A log shipper's pod name in front of every line of a TORCH_LOGS_FORMAT log (pasted-logs.md §2) is taken off the
// record's continuation lines too: the counts are the unprefixed log's (bodies were lost, breaks counted twice).
func TestPodNameOnACustomFormatLog(t *testing.T) {
	for _, name := range []string{"torch-2.6/gb_recompile.custom_format.log", "torch-2.14/gb_recompile.custom_format.log"} {
		data, err := os.ReadFile(Fx(name))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		for i := range lines {
			if lines[i] != "" {
				lines[i] = "trainer-pod-7f9c " + lines[i]
			}
		}
		pod := filepath.Join(t.TempDir(), "pod.log")
		os.WriteFile(pod, []byte(strings.Join(lines, "")), 0o644)
		want, got := triage.LoadReport(t, Fx(name)).Counts, triage.LoadReport(t, pod).Counts
		if got.GraphBreaks != want.GraphBreaks || got.Recompiles != want.Recompiles || got.RecompileLimitHits != want.RecompileLimitHits {
			t.Errorf("%s with a pod name: %+v, want %+v", name, got, want)
		}
	}
}

// Logs of two torch versions given together do not share one log-format guess: the 2.6 log's format and the
// 2.14.1 log's are named each ("2.9+" for both, before: the later evidence won).
func TestLogFormatOfInputsOfTwoVersions(t *testing.T) {
	rep := triage.LoadReport(t, Fx("torch-2.6/gb_recompile.triage.log"), Fx("torch-2.14/gb_recompile.triage.log"))
	if !strings.HasPrefix(rep.LogFormat, "mixed: ") || !strings.Contains(rep.LogFormat, "2.9+") {
		t.Errorf("log format %q", rep.LogFormat)
	}
	if one := triage.LoadReport(t, Fx("torch-2.14/gb_recompile.triage.log")); one.LogFormat != "2.9+" {
		t.Errorf("one 2.14.1 log: %q", one.LogFormat)
	}
}

// A compiled torch.nn module (torch.compile(nn.Sequential(…))) is traced through torch's own wrapper `inner` in
// torch/_dynamo/external_utils.py: the recompile is the module's, which its title and detail say (real 2.14.1
// c01_mlp: "expected inner recompiled for a new size of args[0]" named only torch's function).
func TestRecompileOfACompiledModuleWrapper(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, Fixture("2.14", "c01_mlp.cold.trace")), nil, nil)
	for _, f := range a.Findings {
		if f.Kind != findings.KindRecompile {
			continue
		}
		if !strings.HasPrefix(f.Title, "the compiled module (torch's wrapper inner)") || !strings.Contains(f.Detail, "wraps the compiled module") {
			t.Errorf("title %q\ndetail %s", f.Title, f.Detail)
		}
		return
	}
	t.Fatal("no recompile finding")
}
