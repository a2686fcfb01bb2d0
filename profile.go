package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles writes a CPU profile to $TORCHTRIAGE_CPUPROFILE and a heap profile (at exit) to
// $TORCHTRIAGE_MEMPROFILE, for `go tool pprof torchtriage FILE` (bench/many.sh). The returned func ends them.
func startProfiles() func() {
	cpu, mem := os.Getenv("TORCHTRIAGE_CPUPROFILE"), os.Getenv("TORCHTRIAGE_MEMPROFILE")
	var cf *os.File
	if cpu != "" {
		f, err := os.Create(cpu)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "torchtriage: cpu profile:", err)
		} else {
			cf = f
		}
	}
	return func() {
		if cf != nil {
			pprof.StopCPUProfile()
			_ = cf.Close()
		}
		if mem != "" {
			runtime.GC()
			if f, err := os.Create(mem); err == nil {
				_ = pprof.Lookup("allocs").WriteTo(f, 0)
				_ = f.Close()
			}
		}
	}
}
