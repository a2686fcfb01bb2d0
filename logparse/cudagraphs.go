package logparse

import (
	"regexp"
	"strconv"
	"strings"
)

// CUDA-graph records of Inductor (docs: gpu-cuda-graphs-2.11.md §1–3): graph partitions, re-recordings and the
// "Found from" stack of a skip.

var (
	partitionsRe = regexp.MustCompile(`^Created (\d+) graph partitions: (\d+) cudagraphable, (\d+) non-cudagraphable`)
	partitionRe  = regexp.MustCompile(`^Partition (\d+): (\d+) nodes, (non-cudagraphable|cudagraphable)`)
	partOpRe     = regexp.MustCompile(`^(\S+): reason=(.*?)(?:, ir=([^,]*))?(?:, fx=(.*))?$`)
)

// parsePartitions reads "Created N graph partitions: A cudagraphable, B non-cudagraphable" and the partition,
// op and stack lines the parser joined to it.
func parsePartitions(lines []string) *Partitions {
	p := &Partitions{}
	if len(lines) == 0 {
		return p
	}
	if m := partitionsRe.FindStringSubmatch(lines[0]); m != nil {
		p.Total, _ = strconv.Atoi(m[1])
		p.Cudagraphable, _ = strconv.Atoi(m[2])
		p.NonCudagraphable, _ = strconv.Atoi(m[3])
	}
	var stack []string
	endOp := func() {
		if n := len(p.Parts); n > 0 {
			if ops := p.Parts[n-1].Ops; len(ops) > 0 {
				op := &ops[len(ops)-1]
				op.Frames = parseFrames(stack)
				op.UserFrame, _ = UserFrame(op.Frames)
			}
		}
		stack = stack[:0]
	}
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		if m := partitionRe.FindStringSubmatch(t); m != nil {
			endOp()
			idx, _ := strconv.Atoi(m[1])
			nodes, _ := strconv.Atoi(m[2])
			p.Parts = append(p.Parts, Partition{Index: idx, Nodes: nodes, Cudagraphable: m[3] == "cudagraphable"})
			continue
		}
		if m := partOpRe.FindStringSubmatch(t); m != nil && len(p.Parts) > 0 && !strings.HasPrefix(t, "File ") {
			endOp()
			part := &p.Parts[len(p.Parts)-1]
			part.Ops = append(part.Ops, PartitionOp{Name: m[1], Reason: strings.TrimSpace(m[2]), IR: m[3], FX: m[4]})
			continue
		}
		stack = append(stack, l)
	}
	endOp()
	return p
}

// parseRerecord reads "[F/C] Re-recording function=F, reason=R" and its "input name: X. data pointer changed …"
// line. The compile id is part of the message here (after the artifact tag); it is set on cid when the prefix
// carried none.
func parseRerecord(lines []string, cid *CompileID) *Rerecord {
	rr := &Rerecord{GraphID: -1}
	if len(lines) == 0 {
		return rr
	}
	head := strings.TrimPrefix(messageCompileID(lines[0], cid), "Re-recording function=")
	fn, rest, _ := strings.Cut(head, ", ")
	rr.Function = fn
	// 2.14.1 inserts "mode=…, " before the reason
	if i := strings.Index(rest, "reason="); i >= 0 {
		rr.Reason = strings.TrimSpace(rest[i+len("reason="):])
	}
	var detail []string
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		detail = append(detail, t)
		if name, ok := strings.CutPrefix(t, "input name: "); ok && rr.Input == "" {
			rr.Input, _, _ = strings.Cut(name, ".")
		}
	}
	rr.Detail = strings.Join(detail, "\n")
	return rr
}

// messageCompileID takes the "[F/C] " CUDA-graph trees write at the start of their message off head, and sets it
// on cid when the prefix carried none.
func messageCompileID(head string, cid *CompileID) string {
	if strings.HasPrefix(head, "[") {
		if end := strings.IndexByte(head, ']'); end > 0 {
			if c, ok := parseCompileID([]byte(head[1:end])); ok {
				if !cid.Valid() {
					*cid = c
				}
				return strings.TrimSpace(head[end+1:])
			}
		}
	}
	return head
}

// parseRecording reads "[F/C] Recording function=F, cuda_graph_id=N, inputs: …" (2.11; 2.14.1 adds "mode=…, "):
// one recording of a CUDA graph of F (docs: gpu-cuda-graphs-2.11.md §3).
func parseRecording(lines []string, cid *CompileID) *Rerecord {
	rr := &Rerecord{GraphID: -1}
	if len(lines) == 0 {
		return rr
	}
	head := strings.TrimPrefix(messageCompileID(lines[0], cid), "Recording function=")
	fn, rest, _ := strings.Cut(head, ", ")
	rr.Function = fn
	if _, id, ok := strings.Cut(rest, "cuda_graph_id="); ok {
		n := 0
		for n < len(id) && id[n] >= '0' && id[n] <= '9' {
			n++
		}
		if v, err := strconv.Atoi(id[:n]); err == nil {
			rr.GraphID = v
		}
	}
	return rr
}

// ParseCudagraphSkip reads a cudagraph skip's reason given on its own (a TORCH_TRACE cudagraph_skip_reason, which
// may carry its "Found from" stack on later lines), as parseSkip reads a log's message.
func ParseCudagraphSkip(reason string) *CudagraphSkip { return parseSkip(reason, nil) }

// parseSkip reads a "skipping cudagraphs due to …" message: the reason without the (possibly doubled) lead,
// without "disabling cudagraphs due to", and without the "Found from" stack, whose user frame is kept (on the
// same line in 2.11's nonzero case, or on the following lines, or after it in a trace's one multi-line reason).
func parseSkip(msg string, lines []string) *CudagraphSkip {
	s := &CudagraphSkip{}
	stack := ""
	if i := strings.Index(msg, "Found from"); i >= 0 {
		msg, stack = msg[:i], msg[i+len("Found from"):]
	}
	for {
		trimmed := false
		for _, lead := range []string{"skipping cudagraphs due to ", "skipping cudagraph due to ", "disabling cudagraphs due to "} {
			if rest, ok := strings.CutPrefix(msg, lead); ok {
				msg, trimmed = rest, true
			}
		}
		if !trimmed {
			break
		}
	}
	s.Reason = strings.TrimSuffix(strings.TrimSpace(msg), ".")
	// a trace's cudagraph_skip_reason holds the whole stack, one frame line after another
	frameLines := strings.Split(strings.TrimLeft(stack, " :"), "\n")
	after := false
	for _, l := range lines {
		if after {
			frameLines = append(frameLines, l)
		} else if strings.Contains(l, "Found from") {
			after = true
		}
	}
	if f, ok := UserFrame(parseFrames(frameLines)); ok {
		s.Frame = f
	}
	return s
}

var sizesRe = regexp.MustCompile(`observed (\d+) distinct sizes`)

// parseWarning reads a Python warning ("FILE.py:LINE: UserWarning: message" and its message lines; the code line
// after it is left out) or the CUDA-graph distinct-sizes W record, and names its topic.
func parseWarning(lines []string) *Warning {
	w := &Warning{}
	if len(lines) == 0 {
		return w
	}
	first := lines[0]
	msg := first
	if isPyWarning([]byte(first)) {
		i := strings.Index(first, "Warning: ")
		j := strings.LastIndex(first[:i], ": ")
		k := strings.LastIndexByte(first[:j], ':')
		w.File, w.Category, msg = first[:k], first[j+2:i+len("Warning")], first[i+len("Warning: "):]
		w.Line, _ = strconv.Atoi(first[k+1 : j])
		for _, l := range lines[1:] {
			if strings.HasPrefix(l, "  ") { // the source line of the warn() call
				break
			}
			msg += "\n" + l
		}
	}
	w.Message = strings.TrimSpace(msg)
	switch {
	case strings.HasPrefix(msg, "CUDAGraph supports dynamic shapes by recording"):
		w.Topic = WarnCudagraphSizes
		if m := sizesRe.FindStringSubmatch(msg); m != nil {
			w.Sizes, _ = strconv.Atoi(m[1])
		}
	case strings.HasPrefix(msg, "Unable to hit fast path of CUDAGraphs because"):
		w.Topic = WarnPendingBackward
	case strings.HasPrefix(msg, "TensorFloat32 tensor cores for float32 matrix multiplication available but not enabled"):
		w.Topic = WarnTF32
	case strings.HasPrefix(msg, "The CUDA Graph is empty"):
		w.Topic = WarnEmptyCUDAGraph
	}
	return w
}
