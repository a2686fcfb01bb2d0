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
