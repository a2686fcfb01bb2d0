package runner

import "time"

// stopDumpWait is how long a run the timeout stops has to print its stacks before the first signal.
const stopDumpWait = time.Second

// dumpBeforeStop asks the run's registered stack dumpers (the probe's faulthandler) to print their stacks before
// the timeout's SIGINT, and returns how long to give them: a process blocked in a collective (C++, the GIL
// released) never gets to raise KeyboardInterrupt, so the dump is all that says where it waited. 0 without one.
func (r *Run) dumpBeforeStop() time.Duration {
	if n, err := r.DumpStacks(); err != nil || n == 0 {
		return 0
	}
	return stopDumpWait
}

// dumpGap is how long DumpStacks leaves between two processes' signals, dumpGapsMax how long all gaps may take:
// processes that share a pipe (torchrun's ranks without --tee) and dump at the same moment write their lines into
// each other, mid-line (2 of the 6 hung runs of testdata/dist-hangs), and nothing can be read from them. A dump
// takes a millisecond or so; the gap leaves room for a loaded machine to schedule the process.
const (
	dumpGap     = 100 * time.Millisecond
	dumpGapsMax = time.Second
)

// signalEach signals the pids one after the other with a gap between them (dumpGap, less when many share
// dumpGapsMax), and returns how many it reached.
func signalEach(pids []int, signal func(pid int) bool, sleep func(time.Duration)) int {
	gap := dumpGap
	if len(pids) > 1 {
		gap = min(gap, dumpGapsMax/time.Duration(len(pids)-1))
	}
	n := 0
	for i, pid := range pids {
		if i > 0 && n > 0 {
			sleep(gap)
		}
		if signal(pid) {
			n++
		}
	}
	return n
}
