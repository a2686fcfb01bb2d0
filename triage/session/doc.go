// Package session is one run of a repro, live or opened: it launches the repro with the in-process probe
// (runner, probe), follows its output, parses and analyses it off the caller's goroutine and hands out batches
// of news (at most one per run every 100 ms); it also loads logs that were saved (open) and runs a repro to its
// end for the gate (check -- CMD). The TUI and `check` both drive runs through it. What a run is on disk (its
// spec, meta.json, the run store, presets) is triage/runs': callers use that package for it; this one adds what
// a stored run tells the analysis (RunFactsOf) and what its probe wrote (ReadProbes, ReadStarts).
package session
