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
