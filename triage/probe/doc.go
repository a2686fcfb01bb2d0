// Package probe is the in-process side of torchtriage. Install writes a small
// Python file into the run directory as sitecustomize.py (first on
// PYTHONPATH): it chains to the sitecustomize it shadows, registers a
// SIGUSR1 stack dump (faulthandler) and, at exit of a process that imported
// torch, writes rank<R>-<pid>.json with versions, dynamo counters, compile
// times, graph-changing config, parity-relevant environment and what each live
// optimizer's step is (optim_scan.py, appended to it). ReadDir reads
// those files back; ConfigParity finds settings that differ between ranks and
// CrossCheck compares the process's own graph-break count with the log's.
// Doctor runs doctor.py once in the interpreter `torchtriage run` would use and
// returns its Facts: python, torch (version, CUDA build, GPU), the TORCH_LOGS
// names torch's registry accepts and the compile cache directories.
//
// Every file the probe writes is defined here, once, with its reader: Info
// (rank<R>-<pid>.json, with OptimScan), Start (start-rank<R>-<pid>.json),
// CompileState (compile-rank<R>-<pid>.json), StepLog (steps-rank<R>-<pid>.jsonl: each compile with the step it
// came at, by optimizer.step() calls, a step marker on the output, or seconds: steps.py, appended to the probe),
// and ImportedFiles (modules-<pid>.json: the user modules a process
// imported, written at exit of every main process, torch or not; the runner keeps them in the run's code/).
// The analysis (triage) imports
// them from here; this package imports nothing of the module.
package probe
