package trace

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// envelopeRank reads `"rank": N` of an envelope without decoding it; -1 when it has none.
func envelopeRank(b []byte) int {
	i := indexRank(b)
	if i < 0 {
		return -1
	}
	return intAt(b, i+len(`"rank": `))
}

// indexRank is bytes.Index(b, []byte(`"rank": `)), found from its k: a quote, the byte Index starts from, is a
// JSON line's commonest, and a file without ranks has every envelope searched to its end.
func indexRank(b []byte) int {
	const key = `"rank": `
	for from := 4; from < len(b); {
		i := bytes.IndexByte(b[from:], 'k')
		if i < 0 {
			return -1
		}
		i += from
		if i+4 <= len(b) && string(b[i-4:i+4]) == key {
			return i - 4
		}
		from = i + 1
	}
	return -1
}

// envelopeCID reads `"frame_id": F, "frame_compile_id": C` of an envelope without decoding it (the last of
// each key). The envelope's fields follow its payload object, so only a long line's end is searched (a
// compilation_metrics line is ~40 KB).
func envelopeCID(b []byte) (logparse.CompileID, bool) {
	b = b[max(0, len(b)-400):]
	fi, ci := lastKeys(b, `"frame_id": `, `"frame_compile_id": `)
	if fi < 0 || ci < 0 {
		return logparse.NoCompileID, false
	}
	f, c := intAt(b, fi+len(`"frame_id": `)), intAt(b, ci+len(`"frame_compile_id": `))
	if f < 0 || c < 0 {
		return logparse.NoCompileID, false
	}
	return logparse.CompileID{Autograd: -1, Frame: f, Compile: c}, true
}

// lastKeys is bytes.LastIndex(b, k) of two keys, each `"name": ` (one colon, before its last space): found
// from the end a colon at a time, where the keys are, rather than by a hash of every byte.
func lastKeys(b []byte, k1, k2 string) (i1, i2 int) {
	i1, i2 = -1, -1
	at := func(c int, k string) bool { // the key whose colon is b[c]
		s := c - (len(k) - 2)
		return s >= 0 && s+len(k) <= len(b) && string(b[s:s+len(k)]) == k
	}
	for end := len(b); i1 < 0 || i2 < 0; {
		c := bytes.LastIndexByte(b[:end], ':')
		if c < 0 {
			break
		}
		if i1 < 0 && at(c, k1) {
			i1 = c - (len(k1) - 2)
		}
		if i2 < 0 && at(c, k2) {
			i2 = c - (len(k2) - 2)
		}
		end = c
	}
	return i1, i2
}

// intAt reads the run of ASCII digits at b[j:]; -1 when there is none (or it is too long for a number).
func intAt(b []byte, j int) int {
	k := j
	for k < len(b) && b[k] >= '0' && b[k] <= '9' {
		k++
	}
	if n, ok := number(b[j:k]); ok {
		return n
	}
	return -1
}

// loggedErrors emits the errors dynamo_error artifacts logged of compiles that never reached compilation_metrics
// (the trace ends inside the compile: endsMidCompile): Dynamo raised it, so the compile failed, whatever came of the
// process; a compile error by its class (a Dynamo or Inductor exception) as compilation_metrics' fail_type would be.
func (st *traceState) loggedErrors() {
	for _, r := range st.dynErrs {
		if st.finished(r.CompileID) {
			continue
		}
		if logparse.IsCompileErrorClass(r.Error.Class) {
			r.Kind = logparse.KindCompileError
		}
		st.emit(r)
	}
}

// finished reports a compile (frame and compile id, whatever its attempt and compiled-autograd id: the envelope
// fields envelopeCID reads) that reached its compilation_metrics.
func (st *traceState) finished(cid logparse.CompileID) bool {
	for k := range st.metricsOf {
		if k.Frame == cid.Frame && k.Compile == cid.Compile {
			return true
		}
	}
	return false
}

// CutMidCompile is why a TORCH_TRACE file looks cut: its last compile never reached its compilation_metrics.
const CutMidCompile = "a TORCH_TRACE that ends inside a compile (its process stopped before the compile finished)"

// endsMidCompile notes a trace whose last envelope is of a compile that never reached compilation_metrics (the
// process was killed mid-compile, or the file was cut there; not a compile refused at the recompile limit, which
// finish reads): what that rank had not reached yet is no evidence, so the input is partial.
func (st *traceState) endsMidCompile() {
	cid := st.lastCid
	if !cid.Valid() {
		return
	}
	if st.finished(cid) {
		return
	}
	if _, refused := st.pendLine[cid]; refused || st.limitName[cid] != "" {
		return
	}
	r := st.record(nil, st.lastLine, logparse.KindOther)
	r.CompileID, r.Cut = cid, CutMidCompile
	st.emit(r)
}

// compileID is the compile id an envelope carries (frame_id, frame_compile_id, attempt); NoCompileID when none.
func (env *envelope) compileID() logparse.CompileID {
	if env.FrameID == nil || env.FrameCompileID == nil {
		return logparse.NoCompileID
	}
	cid := logparse.CompileID{Autograd: -1, Frame: *env.FrameID, Compile: *env.FrameCompileID}
	if env.Attempt != nil {
		cid.Attempt = *env.Attempt
	}
	return cid
}

// finish emits what only the end of the file tells: a compile refused at the recompile limit (its
// recompile_reasons artifact has no compilation_metrics), and breaks known only from restart_reasons.
func (st *traceState) finish() {
	cids := make([]logparse.CompileID, 0, len(st.pending))
	for cid := range st.pending {
		cids = append(cids, cid)
	}
	sort.Slice(cids, func(i, j int) bool { return st.pendLine[cids[i]] < st.pendLine[cids[j]] })
	for _, cid := range cids {
		// 2.6: the refused compile logs its recompile reasons (the text log prints "Recompiling function" too)
		// but never reaches compilation_metrics.
		reasons, line := st.pending[cid], st.pendLine[cid]
		if last, ok := st.lastOf[cid.Frame]; ok && last > cid.Compile {
			continue // the frame compiled again after it: this compile was not refused at a limit
		}
		r := st.record(nil, line, logparse.KindRecompile)
		r.CompileID, r.Era = cid, st.era()
		fn := st.frameFn[cid.Frame]
		r.Recompile = &logparse.Recompile{Function: fn.Func, File: fn.File, Line: fn.Line, Failures: failuresOf(reasons)}
		st.emit(r)
		st.emit(st.limitRecord(cid, reasons, line))
	}
	if st.breaks == 0 {
		for _, r := range st.restarts {
			st.emit(r)
		}
	}
}

// limitOfReason reads the limit and its value from 2.14's fail_reason of a compile refused at it: "… exceeding
// the recompile_limit cache size limit (currently set to 2) …"; 2.6's names the limit alone ("cache_size_limit
// reached": its value 0, not known); "", 0 when it does not say.
func limitOfReason(s string) (string, int) {
	const lead, mid = "exceeding the ", " cache size limit (currently set to "
	i := strings.Index(s, lead)
	if i < 0 {
		for _, name := range [...]string{"accumulated_cache_size_limit", "accumulated_recompile_limit", "cache_size_limit", "recompile_limit"} {
			if j := strings.Index(s, name); j >= 0 && (j == 0 || s[j-1] == ' ' || s[j-1] == '.') {
				return name, 0
			}
		}
		return "", 0
	}
	rest := s[i+len(lead):]
	j := strings.Index(rest, mid)
	if j <= 0 || strings.ContainsAny(rest[:j], " \n") {
		return "", 0
	}
	num := rest[j+len(mid):]
	k := strings.IndexByte(num, ')')
	if k <= 0 {
		return "", 0
	}
	n, ok := number([]byte(num[:k]))
	if !ok {
		return "", 0
	}
	return rest[:j], n
}

func isLimitReason(s string) bool {
	return strings.Contains(s, "recompile limit exceeded") || strings.Contains(s, "cache_size_limit") ||
		strings.Contains(s, "recompile_limit")
}

func (st *traceState) limitRecord(cid logparse.CompileID, reasons []string, line int) *logparse.Record {
	r := st.record(nil, line, logparse.KindLimitHit)
	r.CompileID, r.Era = cid, st.era()
	fn := st.frameFn[cid.Frame]
	r.Limit = &logparse.LimitHit{Function: fn.Func, File: fn.File, Line: fn.Line, Limit: st.limitName[cid]}
	if fs := failuresOf(reasons); len(fs) > 0 {
		r.Limit.LastReason = fs[0].CompileID + ": " + fs[0].Guard
	}
	return r
}

// number parses b when it is all ASCII digits, 18 at most; ok is false otherwise.
func number(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 18 || b[0] < '0' || b[0] > '9' {
		return 0, false
	}
	n, err := strconv.Atoi(string(b))
	return n, err == nil
}
