// Package runs is what a run is on disk: the spec of a launch and the exact command it makes (Spec, Command), the
// TORCH_LOGS presets (PresetViews: what each sets, as `torchtriage presets` shows it) and the per-version table of
// TORCH_LOGS names (LogNamesFor, KnownLogName, ComposeTorchLogs; ParseInvalidLogSettings reads torch's rejection
// of one), a run's record (meta.json: Meta, with the supervising process, so a run whose supervisor is gone reads
// as interrupted), the run store of numbered run directories (Store; Resolve and FindRun: the run a command-line
// argument names by number, name or directory; Metas: meta.json read once per command, a store of one run as that
// run), the code a run kept (code/ and Meta.Code: KeepCode, CommandScripts; CodeChanges between two runs), repro
// bundles with their secret scrubbing (Bundle, Scrub) and the eager-baseline comparison
// (CompareBaseline). It launches nothing: triage/runner does, and writes what this package defines. It imports
// nothing of the module but logparse (torch versions) and internal/proc.
package runs
