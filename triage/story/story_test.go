package story

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/runs"
)

var updateStory = flag.Bool("update-story", false, "rewrite testdata/*.golden")

// storyRun writes one run directory as the runner lays it out (NNNN-preset/ with trace/, probe/ and meta.json)
// with a fixture log as stderr.log; log "-" writes empty logs, "" none (a run that failed to start). The
// runner's own variables are added to env as it sets them (PYTHONUNBUFFERED, TORCH_LOGS, the probe's paths).
func storyRun(t *testing.T, store string, m runs.Meta, env map[string]string, log string, probes ...string) string {
	t.Helper()
	m.Name = fmt.Sprintf("%04d-%s", m.ID, m.Preset)
	dir := filepath.Join(store, m.Name)
	for _, sub := range []string{"trace", "probe"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	switch log {
	case "":
	case "-":
		write("stdout.log", nil)
		write("stderr.log", nil)
	default:
		data, err := os.ReadFile(filepath.Join(fixtures, log))
		if err != nil {
			t.Fatal(err)
		}
		write("stderr.log", data)
	}
	for i, p := range probes {
		write(filepath.Join("probe", fmt.Sprintf("rank%d-%d.json", i, 100+i)), []byte(p))
	}
	m.Env = map[string]string{"PYTHONUNBUFFERED": "1", "PYTHONPATH": filepath.Join(dir, "probe", "py"),
		"TORCHTRIAGE_PROBE_DIR": filepath.Join(dir, "probe")}
	if m.TorchLogs != "" {
		m.Env["TORCH_LOGS"] = m.TorchLogs
	}
	for k, v := range env {
		m.Env[k] = v
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	write("meta.json", data)
	return dir
}

// probeJSON is a probe file of one rank of the 2-rank CPU runs the fixtures were recorded from.
func probeJSON(rank int) string {
	return fmt.Sprintf(`{"rank": %d, "local_rank": %d, "world_size": 2, "pid": %d, "rank_source": "env",
		"torch": "2.14.1", "python": "3.14", "cuda": "", "host": "bringup-1", "argv0": "repro.py",
		"counters": {"frames": {"total": 2, "ok": 2}, "stats": {"unique_graphs": 2}}, "config": {"dynamo.recompile_limit": 8}, "env": {}}`, rank, rank, 100+rank)
}

// bringupStore is a session of four runs of one 2-rank repro: 1 c10d (rank 0 prints: a print break, ranks
// disagree), 2 the fix with functional collectives (deep preset, NCCL_DEBUG added, probed), 3 a guards run that
// timed out, 4 a typo that failed to start.
func bringupStore(t *testing.T) string {
	t.Helper()
	store := t.TempDir()
	at := func(min int) time.Time {
		return time.Date(2026, 3, 2, 14, 0, 0, 0, time.FixedZone("CET", 3600)).Add(time.Duration(min) * time.Minute)
	}
	torchrun := func(port string) []string {
		return []string{"torchrun", "--nproc-per-node", "2", "--tee", "3", "--master-port", port, "repro.py"}
	}
	user := []string{"python", "repro.py"}
	exit0 := 0
	storyRun(t, store, runs.Meta{ID: 1, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: user,
		Argv: torchrun("29500"), Nproc: 2, Cwd: "/home/dev/bringup", Start: at(0), DurationS: 41.2,
		State: runs.StateExited, ExitCode: &exit0, Metric: ptrTo(18.1)}, nil, "torch-2.14/r05_dist_c10d.triage.log")
	storyRun(t, store, runs.Meta{ID: 2, Preset: "deep", TorchLogs: "+dynamo,recompiles", UserArgv: user,
		Argv: torchrun("29611"), Nproc: 2, Cwd: "/home/dev/bringup", Start: at(12), DurationS: 63.75,
		State: runs.StateExited, ExitCode: &exit0, Metric: ptrTo(24.5)}, map[string]string{"NCCL_DEBUG": "INFO"},
		"torch-2.14/r06_dist_funcol.dynamo_debug.log", probeJSON(0), probeJSON(1))
	storyRun(t, store, runs.Meta{ID: 3, Preset: "guards", TorchLogs: "guards,recompiles", UserArgv: user,
		Argv: torchrun("29702"), Nproc: 2, Cwd: "/home/dev/bringup", Start: at(30), DurationS: 600,
		State: runs.StateTimedOut, Signal: "SIGTERM", Timeout: 600}, map[string]string{"NCCL_DEBUG": "INFO"},
		"torch-2.14/r05_dist_c10d.guards.log")
	storyRun(t, store, runs.Meta{ID: 4, Preset: "breaks", TorchLogs: "graph_breaks,recompiles",
		UserArgv: []string{"pythn", "repro.py"}, Cwd: "/home/dev/bringup", Start: at(41), State: runs.StateFailedToStart,
		Error: `exec: "pythn": executable file not found in $PATH`}, nil, "")
	if _, err := SetNote(filepath.Join(store, "0002-deep"), "switched  to\nfuncol"); err != nil {
		t.Fatalf("note: %v", err)
	}
	return store
}

func ptrTo[T any](v T) *T { return &v }

func TestStoryFixNamesGoneBreakAndRegainedAgreement(t *testing.T) {
	s, err := Build(bringupStore(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := []int{s.Runs[0].ID, s.Runs[1].ID, s.Runs[2].ID, s.Runs[3].ID}; !slices.Equal(got, []int{1, 2, 3, 4}) {
		t.Fatalf("runs %v, want oldest first", got)
	}
	r1, r2, r3, r4 := &s.Runs[0], &s.Runs[1], &s.Runs[2], &s.Runs[3]
	if r1.Counts == nil || *r1.Counts != (Counts{GraphBreaks: 1, Recompiles: 3, Ranks: 2}) || r1.Delta != nil {
		t.Errorf("run 1: counts %+v delta %+v", r1.Counts, r1.Delta)
	}
	d := r2.Delta
	if d == nil || d.Base != 1 || d.Basis != "same command" || d.Partial || len(d.New) != 0 {
		t.Fatalf("run 2 delta %+v", d)
	}
	var print *compare.DiffItem
	for i := range d.Fixed {
		if d.Fixed[i].Kind == findings.KindGraphBreak {
			print = &d.Fixed[i]
		}
	}
	if print == nil || print.Playbook != "gb-print" || !strings.Contains(print.Title, "print()") || print.Before != 2 {
		t.Errorf("run 2 fixed %+v: want the print break gone with playbook gb-print", d.Fixed)
	}
	if d.Agreement != AgreementRegained || d.AgreementPlaybook != "dist-rank-divergent-graphs" ||
		!strings.Contains(d.AgreementSummary, "rank 0 differs from rank 1") {
		t.Errorf("run 2 agreement %q %q %q", d.Agreement, d.AgreementPlaybook, d.AgreementSummary)
	}
	if d.MetricBefore == nil || *d.MetricBefore != 18.1 || r2.Metric == nil || *r2.Metric != 24.5 {
		t.Errorf("run 2 metric %v, before %v", r2.Metric, d.MetricBefore)
	}
	wantChanges := []Change{{What: "preset", Before: "breaks (graph_breaks,recompiles)", After: "deep (+dynamo,recompiles)"},
		{What: "env", Key: "NCCL_DEBUG", After: "INFO"}}
	if !slices.Equal(r2.Changes, wantChanges) || r2.Note != "switched to funcol" {
		t.Errorf("run 2 changes %+v note %q", r2.Changes, r2.Note)
	}
	// The guards run logs no graph breaks: nothing about breaks or agreement is claimed; its recompiles are
	// automatic dynamic's expected first ones (size, once per rank): no regression either.
	d = r3.Delta
	if d == nil || d.Base != 2 || !d.Partial || r3.Exit != "stopped by torchtriage (timed out)" {
		t.Fatalf("run 3 exit %q delta %+v", r3.Exit, d)
	}
	for _, it := range append(append(d.Fixed, d.New...), d.Changed...) {
		if it.Kind == findings.KindGraphBreak {
			t.Errorf("run 3 compares graph breaks it did not log: %+v", it)
		}
	}
	for _, it := range append(d.Fixed, d.New...) {
		if it.Expected {
			t.Errorf("run 3 calls an expected item fixed or new: %+v", it)
		}
	}
	if len(d.New) != 0 || d.Agreement != "" ||
		!strings.Contains(strings.Join(d.NotCompared, "\n"), "graph breaks: run 3") ||
		!strings.Contains(strings.Join(d.NotCompared, "\n"), "rank agreement") {
		t.Errorf("run 3 delta %+v", d)
	}
	if r4.Counts != nil || r4.Delta != nil || r4.Exit != "failed to start" || !strings.Contains(r4.Error, "pythn") ||
		len(r4.Changes) == 0 || r4.Changes[0].What != "command" {
		t.Errorf("run 4 %+v", r4)
	}
	breaks, recompiles := s.Sparkline()
	if !slices.Equal(breaks, []int{1, 0, -1, -1}) || !slices.Equal(recompiles, []int{3, 0, 3, -1}) {
		t.Errorf("sparkline breaks %v recompiles %v", breaks, recompiles)
	}
	// a run that counted nothing of a kind keeps its place in the trend ("–"), so each number is its run's (the
	// trend left such runs out: 10 numbers for 11 runs on the H100)
	// run 3 was stopped by the tool: its count is a floor ("≥3"), not a run's whole count
	if tr := trendText(s); tr != "graph breaks 1 → 0 → – → – · recompiles 3 → 0 → ≥3 → –" {
		t.Errorf("trend %q", tr)
	}
	if s.Env == nil || s.Env.Source != "probe of run 2" || s.Env.Torch != "2.14.1" || s.Env.WorldSize != 2 {
		t.Errorf("env %+v", s.Env)
	}
}

func TestStoryMarkdownGolden(t *testing.T) {
	s, err := Build(bringupStore(t))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteMarkdown(&b, s)
	golden := filepath.Join("testdata", "session.md.golden")
	if *updateStory {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestStoryMarkdownGolden -update-story)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("markdown differs from %s (-update-story rewrites it):\n%s", golden, b.String())
	}
}

func TestStoryJSONShape(t *testing.T) {
	s, err := Build(bringupStore(t))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema string `json:"schema"`
		Env    struct {
			Torch string `json:"torch"`
		} `json:"environment"`
		Runs []struct {
			ID      int             `json:"id"`
			State   string          `json:"state"`
			Exit    string          `json:"exit"`
			Metric  *float64        `json:"metric"`
			Note    string          `json:"note"`
			Command string          `json:"command"`
			Counts  map[string]int  `json:"counts"`
			Logged  map[string]bool `json:"logged"`
			Changes []Change        `json:"changes"`
			Delta   *struct {
				Base          int              `json:"base"`
				Fixed         []map[string]any `json:"fixed"`
				New           []map[string]any `json:"new"`
				RankAgreement string           `json:"rank_agreement"`
				MetricBefore  *float64         `json:"metric_before"`
				NotCompared   []string         `json:"not_compared"`
				Changed       []map[string]any `json:"changed"`
			} `json:"delta"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if doc.Schema != Schema || doc.Env.Torch != "2.14.1" || len(doc.Runs) != 4 {
		t.Fatalf("schema %q env %q runs %d", doc.Schema, doc.Env.Torch, len(doc.Runs))
	}
	r1, r2, r3, r4 := doc.Runs[0], doc.Runs[1], doc.Runs[2], doc.Runs[3]
	if r1.Delta != nil || r1.Counts["graph_breaks"] != 1 || r1.Counts["recompiles"] != 3 || r1.Counts["ranks"] != 2 {
		t.Errorf("run 1 %+v", r1)
	}
	if r1.Command != "torchrun --nproc-per-node 2 --tee 3 --master-port 29500 repro.py" {
		t.Errorf("run 1 command %q: the printed command is exactly what ran", r1.Command)
	}
	if r2.Delta == nil || r2.Delta.Base != 1 || len(r2.Delta.Fixed) == 0 || r2.Delta.Fixed[0]["playbook"] != "gb-print" ||
		r2.Delta.Fixed[0]["change"] != "gone" || r2.Delta.RankAgreement != "regained" || *r2.Delta.MetricBefore != 18.1 ||
		r2.Delta.New == nil || r2.Delta.NotCompared == nil || r2.Note != "switched to funcol" || *r2.Metric != 24.5 {
		t.Errorf("run 2 %+v delta %+v", r2, r2.Delta)
	}
	if r3.State != "timed_out" || r3.Exit != "stopped by torchtriage (timed out)" || r3.Metric != nil || r3.Logged["graph_breaks"] ||
		!r3.Logged["recompiles"] || !r1.Logged["graph_breaks"] {
		t.Errorf("run 3 %+v", r3)
	}
	if r4.State != "failed_to_start" || r4.Counts != nil || r4.Delta != nil {
		t.Errorf("run 4 %+v", r4)
	}
}

// Comparable runs: the same script with other arguments when no run has the same command; another script or
// the eager baseline is never a base.
func TestStoryComparableRule(t *testing.T) {
	store := t.TempDir()
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	exit0 := 0
	meta := func(id int, preset, logs string, argv ...string) runs.Meta {
		return runs.Meta{ID: id, Preset: preset, TorchLogs: logs, UserArgv: argv, Argv: argv, Cwd: "/w",
			Start: start.Add(time.Duration(id) * time.Minute), State: runs.StateExited, ExitCode: &exit0}
	}
	storyRun(t, store, meta(1, "breaks", "graph_breaks,recompiles", "python", "bench.py", "--impl", "c10d"), nil,
		"torch-2.14/r05_dist_c10d.triage.log")
	storyRun(t, store, meta(2, "eager", "", "python", "bench.py", "--impl", "funcol"),
		map[string]string{"TORCHDYNAMO_DISABLE": "1"}, "-")
	storyRun(t, store, meta(3, "breaks", "graph_breaks,recompiles", "python", "bench.py", "--impl", "funcol"), nil,
		"torch-2.14/r06_dist_funcol.triage.log")
	storyRun(t, store, meta(4, "breaks", "graph_breaks,recompiles", "python", "other.py"), nil,
		"torch-2.14/r12_limit_str.triage.log")
	storyRun(t, store, meta(5, "guards", "guards,recompiles", "python", "bench.py", "--impl", "c10d"), nil,
		"torch-2.14/r05_dist_c10d.guards.log")
	s, err := Build(store)
	if err != nil {
		t.Fatal(err)
	}
	// run 5 logs no graph breaks: run 1's print break is not claimed fixed
	if d := s.Runs[4].Delta; d == nil || d.Base != 1 || d.Basis != "same command" || len(d.Fixed)+len(d.New) != 0 ||
		len(d.NotCompared) != 1 || !strings.HasPrefix(d.NotCompared[0], "graph breaks: run 5") {
		t.Errorf("run 5 delta %+v", d)
	}
	if s.Runs[1].Delta != nil {
		t.Errorf("eager run got a delta: %+v", s.Runs[1].Delta)
	}
	d := s.Runs[2].Delta
	// run 3 printed no record (no rank prefix): the break is fixed, its ranks are not compared, not "agree again"
	if d == nil || d.Base != 1 || d.Basis != "same script" || len(d.Fixed) == 0 || d.Agreement != "" ||
		!strings.Contains(strings.Join(d.NotCompared, "\n"), "rank agreement: run 3") {
		t.Errorf("run 3 delta %+v", d)
	}
	if s.Runs[3].Delta != nil {
		t.Errorf("another script got a delta: %+v", s.Runs[3].Delta)
	}
	want := []Change{{What: "command", Before: "python bench.py --impl c10d", After: "python bench.py --impl funcol"}}
	if c := s.Runs[1].Changes; !slices.Equal(c, append(want, Change{What: "preset", Before: "breaks (graph_breaks,recompiles)", After: "eager"})) {
		t.Errorf("run 2 changes %+v (TORCHDYNAMO_DISABLE comes with the preset)", c)
	}
	sh := func(line string) runs.Meta { return runs.Meta{UserArgv: []string{"sh", "-c", line}} }
	if scriptKey(sh("python a.py")) == scriptKey(sh("python b.py")) || scriptKey(meta(1, "", "", "python", "-m", "a", "-x")) !=
		scriptKey(meta(1, "", "", "python", "-m", "a")) {
		t.Error("scriptKey: sh -c lines are whole commands; -m modules are scripts")
	}
	breaks, _ := s.Sparkline()
	if !slices.Equal(breaks, []int{1, -1, 0, 0, -1}) {
		t.Errorf("breaks sparkline %v", breaks)
	}
}

// The environment line names the GPU and its NVIDIA driver when the probe saw them.
func TestStoryEnvTextWithGPUAndDriver(t *testing.T) {
	e := &Env{Source: "probe of run 2", Torch: "2.11.0", Python: "3.12.3", CUDA: "12.8", GPU: "NVIDIA H200",
		Capability: "9.0", Driver: "570.124.06", WorldSize: 2}
	got := envText(e, false)
	for _, want := range []string{"CUDA 12.8", "GPU NVIDIA H200 (sm 9.0)", "driver 570.124.06", "world size 2"} {
		if !strings.Contains(got, want) {
			t.Fatalf("%q lacks %q", got, want)
		}
	}
}
