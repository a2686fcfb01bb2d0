package logparse

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// agentDump is lines 30-40 of testdata/recorded/diverged-hang/runs/0001-breaks/stderr.log, unedited: torchrun's
// agent dumps its own threads (faulthandler, unprefixed), its first thread, the blank line after it and the
// head and first frame of the next one.
const agentDump = `Thread 0x00007f942ffff6c0 [TailLog_default] (most recent call first):
  File "/usr/lib/python3/dist-packages/torch/distributed/elastic/multiprocessing/tail_log.py", line 54 in tail_logfile
  File "/usr/lib/python3.14/concurrent/futures/thread.py", line 73 in run
  File "/usr/lib/python3.14/concurrent/futures/thread.py", line 86 in run
  File "/usr/lib/python3.14/concurrent/futures/thread.py", line 119 in _worker
  File "/usr/lib/python3.14/threading.py", line 1025 in run
  File "/usr/lib/python3.14/threading.py", line 1083 in _bootstrap_inner
  File "/usr/lib/python3.14/threading.py", line 1045 in _bootstrap

Thread 0x00007f943cb3b6c0 [TailLog_default] (most recent call first):
  File "/usr/lib/python3/dist-packages/torch/distributed/elastic/multiprocessing/tail_log.py", line 54 in tail_logfile
`

// A faulthandler dump is one stack record, all its threads: a "Thread 0x…" or "Current thread 0x…" line goes on
// with an open dump (builder.startsNew). A part that starts at such a line holds it as a lead (lead.go: noStack),
// so the join replays it through the dump the part before left open; a lead that ended at it closed the dump there
// and the parts gave two records where a serial parse gives one (the bug found with the recording: "stack r0
// l53925-53951" against "l53925-53970" in TestParallelEqualsSerial). Every part size, with a rank prefix and
// without, and after the dump what must still end it: a traceback header, a prefixed line of the channel.
func TestParallelStackDumpThreadsEqualSerial(t *testing.T) {
	tb := "Traceback (most recent call last):\n  File \"/x.py\", line 1, in <module>\nValueError: x\n"
	glog := "W1127 09:27:23.784000 12716 torch/distributed/elastic/agent/server/api.py:753] Received 2 death signal, shutting down workers\n"
	for name, in := range map[string]string{
		"dump":              agentDump,
		"dump, traceback":   agentDump + tb + agentDump,
		"dump, prefixed":    agentDump + glog + agentDump,
		"traceback, dump":   tb + agentDump + agentDump,
		"dump, blank, dump": agentDump + "\n" + agentDump,
	} {
		for _, prefix := range []string{"", "[rank0]:"} {
			var b strings.Builder
			for _, l := range strings.SplitAfter(in, "\n") {
				if l != "" {
					b.WriteString(prefix + l)
				}
			}
			path := filepath.Join(t.TempDir(), "dump.log")
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			serial := parseInParts(t, path, 1, 1<<40, sig)
			if name == "dump" && (len(serial) != 1 || serial[0] != "stack r"+map[string]string{"": "-1", "[rank0]:": "0"}[prefix]+" l1-11 ") {
				t.Fatalf("%q serial: %q, want one stack record of lines 1-11", prefix, serial)
			}
			for ps := int64(1); ps <= int64(b.Len()); ps++ {
				if got := parseInParts(t, path, 2, ps, sig); !reflect.DeepEqual(got, serial) {
					t.Fatalf("%s, prefix %q, part size %d:\n got %q\nwant %q", name, prefix, ps, got, serial)
				}
			}
		}
	}
}
