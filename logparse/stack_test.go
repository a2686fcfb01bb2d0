package logparse

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

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

// The dumps `check -- torchrun …` took of a real 2-rank hang (testdata/dist-hangs/runs, no --tee): torchrun's agent
// and both ranks dump into one pipe, one record; each rank's main thread is one process of the program.
func TestStackMainsOfUnprefixedDumps(t *testing.T) {
	for _, c := range []struct {
		run   string
		wants []string // each main thread's innermost frame, then its user frame
	}{
		{"h01_cond_allreduce.check-2.14-rerun", []string{"all_reduce h01_cond_allreduce.py:28", "barrier h01_cond_allreduce.py:30"}},
		{"h01_cond_allreduce.check-2.6", []string{"all_reduce h01_cond_allreduce.py:28", "barrier h01_cond_allreduce.py:30"}},
		{"h03_compiled_cond_collective.check-2.14", []string{"__call__ h03_compiled_cond_collective.py:18", "barrier h03_compiled_cond_collective.py:30"}},
	} {
		recs, _ := parseFile(t, filepath.Join("..", "testdata", "dist-hangs", "runs", c.run, "stderr.log"), Options{})
		var got []string
		for _, r := range recs {
			if r.Kind != KindStack {
				continue
			}
			mains, interleaved := StackMains(r.Lines)
			if interleaved {
				t.Errorf("%s: interleaved", c.run)
			}
			for _, m := range mains {
				outer := slices.Clone(m.Frames)
				slices.Reverse(outer)
				u, _ := UserFrame(outer)
				got = append(got, m.Frames[0].Func+" "+filepath.Base(u.File)+":"+strconv.Itoa(u.Line))
				if !strings.HasPrefix(m.ID, "0x0000") {
					t.Errorf("%s: thread id %q", c.run, m.ID)
				}
			}
		}
		if !slices.Equal(got, c.wants) {
			t.Errorf("%s: %v, want %v", c.run, got, c.wants)
		}
	}
	for _, run := range []string{"h01_cond_allreduce.check-2.14", "h01_cond_allreduce.check-2.14-try1"} {
		recs, _ := parseFile(t, filepath.Join("..", "testdata", "dist-hangs", "runs", run, "stderr.log"), Options{})
		seen := false
		for _, r := range recs {
			if r.Kind == KindStack {
				mains, interleaved := StackMains(r.Lines)
				seen = seen || interleaved
				if interleaved && mains != nil {
					t.Errorf("%s: threads of interleaved dumps: %+v", run, mains)
				}
			}
		}
		if !seen {
			t.Errorf("%s: the interleaved dumps not seen", run)
		}
	}
}
