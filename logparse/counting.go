package logparse

import (
	"unicode/utf8"
	"unsafe"
)

// What counting (Options.SkipOther without KeepText) saves per record, beyond the break memo: under torchrun a big
// log is tens of thousands of graph-break and recompile records, and the heap they leave behind grows to the
// collector's budget (bench/many.sh: 236 MB allocated a run, half of it records, their builders and their text).
//   - A recompile's lines are read in place, in its builder's text buffer, and only what its payload keeps
//     (function, file, each failure's compile id, guard and user stack, Extra) is copied, into one string
//     (withFailures).
//   - The builders of counted graph breaks and recompiles are recycled once closed: nothing holds them then (their
//     channel's slot and lastB were the only references; only tracebacks are kept beyond, caught.go).
//
// countingShortcuts turns both off (tests compare every record with them and without).
var countingShortcuts = true

// views cuts the builder's text into its lines without copying them: valid only until the text buffer is reused
// (finish: the payload owns its strings, withFailures). ok is false for text that is not valid UTF-8, which lines
// makes valid, copying.
func (b *builder) views(buf []string) (out []string, ok bool) {
	if !utf8.Valid(b.text) {
		return nil, false
	}
	out = buf[:0]
	start := 0
	for _, end := range b.ends {
		if end > start {
			out = append(out, unsafe.String(&b.text[start], end-start))
		} else {
			out = append(out, "")
		}
		start = end
	}
	return out, true
}

// recycle keeps a closed builder of a counted graph break or recompile for the next record (open).
func (p *Parser) recycle(b *builder) {
	if countingShortcuts && counted(p, b) && len(p.freeB) < 16 {
		*b = builder{}
		p.freeB = append(p.freeB, b)
	}
}

// newBuilder is a recycled builder, or a new one.
func (p *Parser) newBuilder() *builder {
	if n := len(p.freeB); n > 0 {
		b := p.freeB[n-1]
		p.freeB = p.freeB[:n-1]
		return b
	}
	return new(builder)
}

// counted reports a builder of a record that counting makes without keeping its lines (finish's reuse).
func counted(p *Parser, b *builder) bool {
	return p.opt.SkipOther && !p.opt.KeepText && (b.head == headBreak || b.head == headRecompile)
}
