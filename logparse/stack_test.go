package logparse

import "testing"

// The dumps of testdata/recorded/diverged-hang (2.14.1): a rank's main thread in a collective, torchrun's agent.
func TestStackFrame(t *testing.T) {
	rank := []string{
		"Thread 0x00007f85c0ffe6c0 [python3.14] (most recent call first):",
		`  File "/usr/lib/python3.14/threading.py", line 359 in wait`,
		"",
		"Current thread 0x00007f85d24da200 [python3.14] (most recent call first):",
		`  File "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", line 3913 in all_reduce`,
		`  File "/usr/lib/python3/dist-packages/torch/distributed/c10d_logger.py", line 83 in wrapper`,
		`  File "/work/hang-rec/skip_sync.py", line 19 in <module>`,
	}
	if f, ok := StackFrame(rank); !ok || f.File != "/work/hang-rec/skip_sync.py" || f.Line != 19 {
		t.Errorf("rank's dump: %+v %v, want skip_sync.py:19", f, ok)
	}
	agent := []string{
		"Current thread 0x00007f94639dc200 [pt_elastic] (most recent call first):",
		`  File "/usr/lib/python3/dist-packages/torch/distributed/elastic/agent/server/api.py", line 923 in _invoke_run`,
		`  File "/usr/lib/python3/dist-packages/torch/distributed/run.py", line 1138 in main`,
		`  File "/usr/bin/torchrun", line 6 in <module>`,
	}
	if f, ok := StackFrame(agent); ok {
		t.Errorf("torchrun's dump gave %+v, want none (the launcher's, not the program's)", f)
	}
}
