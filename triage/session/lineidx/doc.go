// Package lineidx holds a log's per-line index compactly: Offsets, ascending byte offsets in blocks (one int64
// base per block, two-byte deltas when they fit), and Values, a small number per line (a line's rank) that most
// lines lack, kept as the lines that have one until dense storage is smaller. Both only grow; a copy (Offsets,
// Values are values) taken at any time reads what it held then, from any goroutine, while the original grows.
// It knows nothing of logs, files or ranks: triage/session's Log keeps its line marks and ranks in it.
package lineidx
