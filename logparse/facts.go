package logparse

import "bytes"

// Facts are what an input's lines show beyond their records: whether torch logged anything at all, and which
// TORCH_LOGS artifacts tagged its lines. A clean run prints no graph-break or recompile record, so these are how
// a report tells "nothing happened" from "nothing was logged".
type Facts struct {
	TorchLog  bool            // a line logged by torch (a glog or dated prefix naming a torch emitter or logger)
	Artifacts map[string]bool // "graph_breaks", "recompiles", "cudagraphs", … from "[__artifact]" tags
	Trace     bool            // a TORCH_TRACE file: it records every compile, whatever TORCH_LOGS asked for
	// TorchVersion is the torch version the input states ("2.11.0+cu130": a trace's torch_version artifact or
	// its compilation metrics), "" when it states none.
	TorchVersion string
	// DynamoDebug: a DEBUG-level line of Dynamo (TORCH_LOGS=+dynamo), which logs graph breaks too.
	DynamoDebug bool
	// Dynamic: an INFO or DEBUG line of the dynamic log's loggers (symbolic_shapes: create_env, create_symbol…),
	// which TORCH_LOGS dynamic turns on, and dynamo too (its loggers include them). A WARNING prints anyway.
	Dynamic bool
	// DynamoInfo: an INFO line of Dynamo's own loggers ("Step 1: torchdynamo start tracing …", TORCH_LOGS=dynamo),
	// not the marking line automatic dynamic logs through the dynamic log's logger: the dynamic log's lines may
	// be dynamo's.
	DynamoInfo bool
	// Torchrun: a line logged by torchrun's launcher (torch.distributed.run, torchelastic): the input is a torchrun
	// job's console, whatever rank prefixes its lines carry (ranks that print nothing torch-like show none).
	Torchrun bool
	// CutLine: the input ends inside a torch log line (a glog line without its newline): torch's logging ends
	// every line, so the input was cut, or is still being written.
	CutLine bool
	// TorchMessage: a line of Dynamo's own exception text outside any record (dynamoMessage): a program that
	// caught a compile exception and printed it shows torch ran.
	TorchMessage bool
	// TorchFrames: a frame of a C++ stack trace in torch's libraries ("frame #0: … in …/torch/lib/libc10.so)"),
	// as c10's exceptions and the NCCL watchdog print them: torch ran, whatever record the lines are in.
	TorchFrames bool
	// PIDs are the processes that wrote torch log lines without a rank prefix (glog's pid field), at most
	// MaxPIDs of them: two or more are no single process, whatever the lines do not say.
	PIDs map[int]bool
	// Prefixed: a line carried a rank prefix ([rankN]:, an srun label…): the input's lines say their ranks, so a
	// rank its file name gives is none of them. Input names the input these facts are of (ParseInputs).
	Prefixed bool
	Input    string
	// Changed: the file shrank or was rewritten while being read (ParseInput): what was read is counted, what
	// the file held beyond it is not.
	Changed bool
}

// MaxPIDs bounds Facts.PIDs (a log of thousands of processes says as much with 64): that many means "at least".
const MaxPIDs = 64

func (f *Facts) notePID(pid int) {
	if f.PIDs == nil {
		f.PIDs = map[int]bool{}
	}
	if len(f.PIDs) < MaxPIDs {
		f.PIDs[pid] = true
	}
}

// Merge adds what another input (or part) showed.
func (f *Facts) Merge(o Facts) {
	f.TorchLog = f.TorchLog || o.TorchLog
	f.Trace = f.Trace || o.Trace
	f.DynamoDebug = f.DynamoDebug || o.DynamoDebug
	f.Dynamic = f.Dynamic || o.Dynamic
	f.DynamoInfo = f.DynamoInfo || o.DynamoInfo
	f.Torchrun = f.Torchrun || o.Torchrun
	f.CutLine = f.CutLine || o.CutLine
	f.TorchMessage = f.TorchMessage || o.TorchMessage
	f.TorchFrames = f.TorchFrames || o.TorchFrames
	f.Prefixed = f.Prefixed || o.Prefixed
	f.Changed = f.Changed || o.Changed
	for pid := range o.PIDs {
		f.notePID(pid)
	}
	if f.TorchVersion == "" {
		f.TorchVersion = o.TorchVersion
	}
	for a := range o.Artifacts {
		f.note(a)
	}
}

func (f *Facts) note(artifact string) {
	if f.Artifacts == nil {
		f.Artifacts = map[string]bool{}
	}
	f.Artifacts[artifact] = true
}

// dynamoMessages start lines that only Dynamo's exception text prints (torch/_dynamo/exc.py, the real
// fullgraph_err fixtures of 2.6 and 2.14): its compile-failure epilogue and the graph-break site link (2.9+).
var dynamoMessages = [][]byte{
	[]byte("You can suppress this exception and fall back to eager by setting:"),
	[]byte(`Set TORCH_LOGS="+dynamo" and TORCHDYNAMO_VERBOSE=1 for more information`),
	[]byte("Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace"),
	[]byte("For more details about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/"),
}

// dynamoMessage reports a line of Dynamo's own exception text (leading spaces aside).
func dynamoMessage(body []byte) bool {
	body = bytes.TrimLeft(body, " \t")
	if len(body) == 0 || body[0] != 'Y' && body[0] != 'S' && body[0] != 'F' {
		return false
	}
	for _, m := range dynamoMessages {
		if bytes.HasPrefix(body, m) {
			return true
		}
	}
	return false
}
