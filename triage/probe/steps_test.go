package probe

import "testing"

// A steps file as the probe writes it (2.14.1's lines, testdata/recorded/after-warmup), its last line cut by the
// process's death: the lines before it stand; the recompile is told from the compile by its guard or its id.
func TestParseStepLog(t *testing.T) {
	data := []byte(`{"compile_id": "0/0", "ev": "compile", "file": "/t/train.py", "frame": "forward", "line": 11, "marker": null, "opt": 0, "reason": null, "t": 5.0, "trigger": "DYNAMO"}
{"compile_id": "0/0", "ev": "compile", "file": "", "frame": "", "line": 0, "marker": null, "opt": 0, "reason": null, "t": 6.6, "trigger": "LAZY_BACKWARD"}
{"compile_id": "0/1", "ev": "compile", "file": "/t/train.py", "frame": "forward", "line": 11, "marker": null, "opt": 30, "reason": "0/0: tensor 'x' size mismatch at index 0. expected 8, actual 5", "t": 7.9, "trigger": "DYNAMO"}
{"compile_id": "1/0", "ev": "compile", "file": "/t/train.py", "frame": "other", "line": 20, "marker": null, "opt": 31, "reason": null, "t": 8.1, "trigger": ""}
{"ev": "end", "marker": null, "op`)
	l, err := ParseStepLog(data)
	if err != nil || len(l.Events) != 4 || l.Ended {
		t.Fatalf("%+v %v", l, err)
	}
	for i, want := range []bool{false, false, true, false} {
		if got := l.Events[i].Recompile(); got != want {
			t.Errorf("event %d: recompile %v, want %v", i, got, want)
		}
	}
	if got := l.StepsSeen(StepsOptimizer); got != 31 {
		t.Errorf("steps seen %d, want 31 (the last compile's: no exit line)", got)
	}
	if Source([]StepLog{l}, true) != StepsOptimizer {
		t.Error("an optimizer that stepped is the clock, whatever the marker")
	}
	if Source([]StepLog{{Ended: true}}, true) != StepsMarker || Source([]StepLog{{Ended: true}}, false) != StepsTime {
		t.Error("no optimizer step: the marker when given, else time")
	}
	if _, err := ParseStepLog([]byte("not json\n")); err == nil {
		t.Error("a file with no line read is malformed")
	}
}

// The probe's clocks in a process (the fake torch's callback handler standing for Dynamo's): with a step marker the
// compile is stamped with the step the last matching line named, a line counted once whether written whole or in
// pieces, and the program's output is unchanged; the exit line says the last step seen.
func TestProbeStampsCompilesWithTheMarker(t *testing.T) {
	runDir, env := installProbe(t, fakeTorch(t), "RANK=0", StepMarkerEnv+`=served request (\d+)`)
	script := `import sys
import torch, torch._dynamo

class Args:
    class callback_trigger:
        name = "DYNAMO"
    compile_id = "0/0"

h = torch._dynamo.callback.callback_handler
print("served request 3")
h.run_start_callbacks(Args())
sys.stdout.write("served req")
sys.stdout.write("uest 20\nother\n")
Args.compile_id = "0/1"
h.run_start_callbacks(Args())
print("served request 21", file=sys.stderr)
`
	res := runPython(t, env, script)
	if res.code != 0 || res.stdout != "served request 3\nserved request 20\nother\n" || res.stderr != "served request 21\n" {
		t.Fatalf("output changed: %+v", res)
	}
	logs, errs := ReadStepLogs(runDir)
	if len(errs) > 0 || len(logs) != 1 {
		t.Fatalf("%v %v", logs, errs)
	}
	l := logs[0]
	if len(l.Events) != 2 || l.Events[0].Step(StepsMarker) != 3 || l.Events[1].Step(StepsMarker) != 20 || l.Events[1].CompileID != "0/1" {
		t.Errorf("events %+v", l.Events)
	}
	if !l.Ended || l.StepsSeen(StepsMarker) != 21 || Source(logs, true) != StepsMarker {
		t.Errorf("exit line: %+v", l)
	}
}
