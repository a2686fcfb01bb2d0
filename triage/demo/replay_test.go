package demo

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var presetLogs = map[string]string{
	PresetTriage:      "graph_breaks,recompiles",
	PresetVerbose:     "recompiles_verbose,graph_breaks",
	PresetGuards:      "guards,recompiles",
	PresetPerf:        "perf_hints,cudagraphs,graph_breaks,recompiles",
	PresetDynamoDebug: "+dynamo,recompiles",
}

// What each repro prints itself (fixtures/repro/*.py), in order.
var userOutput = map[string]string{
	"gb_recompile":    strings.Repeat("side effect in helper\n", 9) + "done\n",
	"r05_dist_c10d":   "rank0 debug\nrank0 debug\n",
	"r06_dist_funcol": "",
	"r12_limit_str":   "",
}

func TestReplayEqualsRecording(t *testing.T) {
	for _, scn := range Scenarios() {
		for preset, logs := range presetLogs {
			file, ok := scn.files[preset]
			c, _, code := replay(t, []string{"--scenario", scn.Name}, map[string]string{"TORCH_LOGS": logs})
			if !ok { // no recording of what this TORCH_LOGS prints: none is played in its place (it played triage's)
				if code == 0 || c.out.Len() > 0 || !strings.Contains(c.err.String(), "has no recording of what TORCH_LOGS="+logs+" prints") {
					t.Errorf("%s %s: exit %d\nstdout %s\nstderr %s", scn.Name, preset, code, c.out.String(), c.err.String())
				}
				continue
			}
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", scn.Name, preset, code, c.err.String())
			}
			label := strings.TrimSuffix(strings.TrimPrefix(file, scn.Name+"."), ".log")
			if got := withoutBanner(t, c, scn.Name, label); !bytes.Equal(got, mustRecording(t, file)) {
				t.Errorf("%s %s: replayed bytes differ from %s", scn.Name, preset, file)
			}
			if out := strings.TrimPrefix(c.out.String(), Banner(scn.Name, label)+"\n"); out != userOutput[scn.Name] {
				t.Errorf("%s %s: stdout holds more than the user's prints:\n%.400s", scn.Name, preset, out)
			}
		}
	}
}

func TestNoTorchLogs(t *testing.T) {
	// gb_recompile has a recorded run without TORCH_LOGS: replayed as is.
	c, _, _ := replay(t, nil, map[string]string{})
	if got := withoutBanner(t, c, "gb_recompile", "no_torch_logs"); !bytes.Equal(got, mustRecording(t, "gb_recompile.no_torch_logs.log")) {
		t.Errorf("gb_recompile without TORCH_LOGS must be the no_torch_logs recording")
	}
	// The others: the triage run without its V/I lines (validated on gb_recompile, whose
	// triage run minus those lines is its no_torch_logs run but for time stamps and pids).
	label := "no_torch_logs: triage without its debug/info lines"
	c, _, _ = replay(t, []string{"--scenario", "r12_limit_str"}, map[string]string{})
	got := string(withoutBanner(t, c, "r12_limit_str", label))
	if n := strings.Count(got, "\n"); n != 8 || !strings.Contains(got, "torch._dynamo hit config.recompile_limit (8)") {
		t.Errorf("r12 without TORCH_LOGS: want the 8-line limit warning only, got %d lines:\n%s", n, got)
	}
	c, _, _ = replay(t, []string{"--scenario", "r05_dist_c10d"}, map[string]string{})
	got = string(withoutBanner(t, c, "r05_dist_c10d", label))
	if strings.Contains(got, "]:V1121") || strings.Count(got, "\n") != 10 || !strings.Contains(got, "Rank 0 is connected to 1") {
		t.Errorf("r05 without TORCH_LOGS: want launcher warnings, gloo lines and prints (10 lines):\n%s", got)
	}
}

func TestEagerPrintsOnlyUserOutput(t *testing.T) {
	env := map[string]string{"TORCHDYNAMO_DISABLE": "1", "TORCH_LOGS": "graph_breaks,recompiles"}
	c, s, code := replay(t, nil, env)
	if code != 0 || c.err.Len() != 0 {
		t.Fatalf("eager: exit %d, stderr %q", code, c.err.String())
	}
	want := Banner("gb_recompile", "eager: the user's output of triage") + "\n" + userOutput["gb_recompile"]
	if c.out.String() != want {
		t.Errorf("eager stdout:\n%s\nwant:\n%s", c.out.String(), want)
	}
	_, compiled, _ := replay(t, nil, map[string]string{"TORCH_LOGS": "graph_breaks,recompiles"})
	if s.total() <= 0 || s.total()*5 > compiled.total() {
		t.Errorf("eager must be much faster: %v vs %v compiled", s.total(), compiled.total())
	}
}

func TestTimingFollowsRecordingAndIsCapped(t *testing.T) {
	// gb_recompile.triage.log runs from 07:47:33.827 to 07:47:36.342, no gap above MaxGap.
	_, s, _ := replay(t, nil, map[string]string{"TORCH_LOGS": "graph_breaks,recompiles"})
	if s.total() != 2515*time.Millisecond {
		t.Errorf("gb_recompile total pause %v, want 2.515s", s.total())
	}
	_, s, _ = replay(t, nil, map[string]string{"TORCH_LOGS": "graph_breaks,recompiles", "TORCHTRIAGE_DEMO_SPEED": "4"})
	if s.total() != 2515*time.Millisecond/4 {
		t.Errorf("speed 4: total pause %v, want 628.75ms", s.total())
	}
	// r05: 21.367 -> 23.523883566 (2.16s, capped) -> 23.535443971 -> 27.444 (3.9s, capped)
	// -> 36.395 (8.95s, capped) -> 36.537 -> 36.609 -> 37.754.
	_, s, _ = replay(t, []string{"--scenario", "r05_dist_c10d"}, map[string]string{"TORCH_LOGS": "graph_breaks,recompiles"})
	want := 3*MaxGap + 11560405*time.Nanosecond + 142*time.Millisecond + 72*time.Millisecond + 1145*time.Millisecond
	if s.total() != want {
		t.Errorf("r05 total pause %v, want %v", s.total(), want)
	}
	for _, d := range s.pauses {
		if d <= 0 || d > MaxGap {
			t.Errorf("pause %v outside (0, MaxGap]", d)
		}
	}
}

func TestPlayOrderBatchesAndPauses(t *testing.T) {
	rec := []byte("V1121 07:47:33.000000 1 torch/a.py:1] a\n" +
		"plain\n" +
		"V1121 07:47:33.200000 1 torch/a.py:1] b\n" +
		"[rank1]:V1121 07:47:33.100000 2 torch/a.py:1] c\n" + // another rank, earlier: no pause
		"V1121 07:47:33.500000 1 torch/a.py:1] d\n" +
		"W1121 07:47:43.500000 1 torch/a.py:1] e\n") // 10 s later: capped
	var events []string
	ev := &eventWriter{events: &events}
	p := &player{stdout: ev.to("out"), stderr: ev.to("err"), speed: 2,
		sleep: func(_ context.Context, d time.Duration) error {
			events = append(events, "sleep "+d.String())
			return nil
		}}
	if err := p.play(context.Background(), parseLines(rec), func(line) bool { return true }, 1); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"err V1121 07:47:33.000000 1 torch/a.py:1] a\n", "out plain\n", "sleep 100ms",
		"err V1121 07:47:33.200000 1 torch/a.py:1] b\n[rank1]:V1121 07:47:33.100000 2 torch/a.py:1] c\n",
		"sleep 150ms", "err V1121 07:47:33.500000 1 torch/a.py:1] d\n", "sleep 750ms",
		"err W1121 07:47:43.500000 1 torch/a.py:1] e\n",
	}
	if strings.Join(events, "|") != strings.Join(want, "|") {
		t.Errorf("events:\n%q\nwant:\n%q", events, want)
	}
}

func TestTraceFilesWritten(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "trace")
	c, _, code := replay(t, []string{"--scenario", "r05_dist_c10d"},
		map[string]string{"TORCH_LOGS": "graph_breaks,recompiles", "TORCH_TRACE": dir})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, c.err.String())
	}
	withoutBanner(t, c, "r05_dist_c10d", "withtrace") // the run that wrote these trace files
	for _, name := range []string{"dedicated_log_torch_trace_rank_0_i23m754j.log", "dedicated_log_torch_trace_rank_1_7itg8zb0.log"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, mustRecording(t, filepath.Join("r05_dist_c10d.trace", name))) {
			t.Errorf("%s not written unchanged: %v", name, err)
		}
	}
	// TORCH_TRACE with another preset: that preset's log, and the trace files all the same.
	dir2 := filepath.Join(t.TempDir(), "t2")
	c, _, _ = replay(t, nil, map[string]string{"TORCH_LOGS": "recompiles_verbose", "TORCH_TRACE": dir2})
	withoutBanner(t, c, "gb_recompile", "recompiles_verbose")
	if entries, _ := os.ReadDir(dir2); len(entries) != 1 {
		t.Errorf("gb_recompile trace: %v", entries)
	}
	// gb_recompile's trace run had no TORCH_LOGS: replayed when TORCH_LOGS is empty.
	c, _, _ = replay(t, nil, map[string]string{"TORCH_TRACE": filepath.Join(t.TempDir(), "t4")})
	if got := withoutBanner(t, c, "gb_recompile", "withtrace"); !bytes.Equal(got, mustRecording(t, "gb_recompile.withtrace.log")) {
		t.Error("gb_recompile with TORCH_TRACE and no TORCH_LOGS must replay its withtrace run")
	}
	// Eager compiles nothing: no trace files.
	dir3 := filepath.Join(t.TempDir(), "t3")
	replay(t, nil, map[string]string{"TORCHDYNAMO_DISABLE": "1", "TORCH_TRACE": dir3})
	if _, err := os.Stat(dir3); !os.IsNotExist(err) {
		t.Errorf("eager wrote trace files: %v", err)
	}
}

func TestUnknownTorchLogsName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "trace")
	c, s, code := replay(t, nil, map[string]string{"TORCH_LOGS": "graph_breaks,nonexistent_thing", "TORCH_TRACE": dir})
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !bytes.Equal(c.err.Bytes(), mustFailure(t)) {
		t.Errorf("stderr is not the recorded failure:\n%s", c.err.String())
	}
	if c.out.String() != Banner("gb_recompile", "invalid TORCH_LOGS")+"\n" || len(s.pauses) != 0 {
		t.Errorf("stdout %q, pauses %v", c.out.String(), s.pauses)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Error("torch dies at import: no trace files")
	}
	c, _, code = replay(t, nil, map[string]string{"TORCH_LOGS": "recompiles, bogus"})
	want := strings.Replace(string(mustFailure(t)), "settings: graph_breaks,nonexistent_thing,", "settings: recompiles, bogus,", 1)
	if code != 1 || c.err.String() != want || !strings.Contains(want, "Invalid log settings: recompiles, bogus, must be") {
		t.Errorf("exit %d, stderr:\n%s", code, c.err.String())
	}
}

func mustFailure(t *testing.T) []byte {
	t.Helper()
	data, err := recordings.ReadFile(failureFile)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestWriteErrorStopsReplay(t *testing.T) {
	errw := &capture{}
	out := &failingWriter{n: 1} // the banner goes out, the first user print fails
	code := run(context.Background(), nil, out, errw.stderr(),
		envOf(map[string]string{"TORCH_LOGS": "graph_breaks,recompiles"}), (&noSleep{}).sleep)
	if code != 1 || out.calls != 2 {
		t.Fatalf("exit %d after %d stdout writes, want 1 after 2", code, out.calls)
	}
	rec := string(mustRecording(t, "gb_recompile.triage.log"))
	firstPrint := strings.Index(rec, "side effect in helper\n")
	if got := errw.err.String(); got != rec[:firstPrint] {
		t.Errorf("after the failed write nothing more may be written; stderr has %d bytes, want %d", len(got), firstPrint)
	}
	if code := run(context.Background(), nil, &failingWriter{}, errw.stderr(), envOf(nil), (&noSleep{}).sleep); code != 1 {
		t.Errorf("banner write failure: exit %d", code)
	}
}

func TestBadArguments(t *testing.T) {
	c, _, code := replay(t, []string{"--scenario", "nope"}, nil)
	if code != 2 || !strings.Contains(c.err.String(), `unknown scenario "nope"`) || !strings.Contains(c.err.String(), "r06_dist_funcol") {
		t.Errorf("exit %d: %s", code, c.err.String())
	}
	if _, _, code := replay(t, []string{"extra"}, nil); code != 2 {
		t.Errorf("extra argument: exit %d", code)
	}
	for _, speed := range []string{"abc", "0", "-1", "NaN"} {
		c, _, code := replay(t, nil, map[string]string{"TORCHTRIAGE_DEMO_SPEED": speed})
		if code != 2 || !strings.Contains(c.err.String(), "TORCHTRIAGE_DEMO_SPEED") || c.out.Len() != 0 {
			t.Errorf("speed %q: exit %d, %s", speed, code, c.err.String())
		}
	}
}

type eventWriter struct{ events *[]string }

func (e *eventWriter) to(stream string) writerFunc {
	return func(p []byte) (int, error) {
		*e.events = append(*e.events, stream+" "+string(p))
		return len(p), nil
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
