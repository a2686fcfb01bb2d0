// Package trace reads TORCH_TRACE structured files (dedicated_log_torch_trace_*.log: glog-headed JSON envelopes
// and their payload lines) into the same typed logparse.Records the text logs give, marked FromTrace: Parse of a
// whole file, Reader of one still being written. It holds the trace's own state (envelopes, compilation
// metrics, cache artifacts, shapes, DDPOptimizer's split, a file cut mid-compile) and nothing else; the records,
// their kinds and the readers it shares with the text parser (glog heads, tracebacks, guard failures, cudagraph
// skips) are logparse's, which it imports.
//
// A file is read in large chunks and each line where it lies (Parse feeds a file to a Reader); an envelope's
// kind is told by its first key, and the envelopes torch writes are decoded by a scanner of their own
// (decode.go, readEnvelope), encoding/json taking any shape it does not read exactly as json.Unmarshal would.
//
// logparse does not import it: logparse.ParseInputs, which picks a trace input by its name or its first line,
// reads one through the function its caller hands in (logparse.Sink.Trace, set to Parse by report.Load, the
// one caller that reads inputs), so the dispatch stays where the inputs are read and the import goes one way.
package trace
