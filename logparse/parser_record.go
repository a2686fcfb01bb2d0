package logparse

import (
	"bytes"
	"unicode/utf8"
)

// open starts a record builder with its first message line; with SkipOther it returns nil for a line that
// starts no known kind of record.
func (p *Parser) open(li *lineInfo, body []byte, cut bool) *builder {
	head, flavor := strongHead(body), byte(0)
	if head == headNone {
		head, flavor = weakHead(body, li)
	}
	if head == headNone && p.opt.SkipOther {
		return nil
	}
	rank := li.rank
	if rank < 0 {
		rank = p.opt.Rank
	}
	var buf textBuf
	if n := len(p.free); n > 0 {
		buf, p.free = p.free[n-1], p.free[:n-1]
	}
	b := p.newBuilder()
	*b = builder{
		text:     buf.text,
		ends:     buf.ends,
		style:    li.style,
		prefix:   append(buf.prefix, li.prefix...),
		indent:   append([]byte(nil), li.indent...),
		prefixed: 1,
		head:     head,
		flavor:   flavor,
		keep:     p.opt.KeepText || head != headNone,
		part:     p.part, lastPart: p.part,
		rec: &Record{
			Input: p.opt.Input, Stream: p.opt.Stream, Rank: rank, LocalRank: li.localRank,
			Level: li.level, PID: li.pid, CompileID: li.cid, FirstLine: p.lineNo, Time: ParseWhen(li.when),
			Artifact: p.names.of(li.artifact), Emitter: p.names.of(li.emitter),
		},
	}
	b.add(p, body, cut)
	return b
}

func (p *Parser) close(slot **builder) {
	if b := *slot; b != nil {
		*slot = nil
		if p.lastB == b {
			p.lastB, p.lastRaw = nil, p.lastRaw[:0]
		}
		p.finish(b)
		p.recycle(b)
	}
}

func (p *Parser) finish(b *builder) {
	r := b.rec
	r.partFirst, r.partLast, r.closedAt = b.part, b.lastPart, 2*p.seq+p.closeLate
	r.plain = b.head == headNone
	// counting keeps no lines: those of a graph break or a recompile (whose payload keeps strings of them, not
	// the slice) are made in a slice that the next record reuses
	reuse := counted(p, b)
	memo := p.opt.memo
	if b.head != headBreak || !reuse {
		memo = nil
	}
	var text string
	viewed := false // a recompile's lines read in place (counting.go): its payload is owned before the text is reused
	hit := memo.get(b.text, b.ends)
	if hit == nil && reuse && b.head == headRecompile && countingShortcuts {
		r.Lines, viewed = b.views(p.lineBuf)
	}
	var rec *memoRecord // a record of another kind counted before (memo.go)
	var key []byte
	if hit == nil && p.opt.memo != nil && countingShortcuts && p.opt.SkipOther && !p.opt.KeepText && recordMemoed(b.head) &&
		!r.Truncated {
		key = recordKey(p.keyBuf, b)
		p.keyBuf = key
		rec = p.opt.memo.getRecord(key, b.ends)
	}
	switch {
	case hit != nil:
		hit.apply(r)
	case rec != nil:
		rec.apply(r)
	case viewed:
	case reuse:
		r.Lines, text = b.lines(p.lineBuf)
	default:
		r.Lines, _ = b.lines(nil)
	}
	switch {
	case hit != nil:
		r.Era = eraEvidence(b)
	case rec != nil:
		settleCaught(b)
		r.Era = eraEvidence(b)
	case key != nil: // classified as the memo remembers it, before settleCaught
		logged := b.logged
		b.logged = false
		classify(b)
		b.logged = logged
		p.opt.memo.putRecord(key, b.ends, r)
		settleCaught(b)
	default:
		classify(b) // a recompile's payload owns its strings (withFailures): its lines may be views
		memo.put(text, b.ends, r)
	}
	if len(p.free) < 16 && cap(b.text) <= 1<<20 { // text buffers are reused: most records are short
		p.free = append(p.free, textBuf{b.text[:0], b.ends[:0], b.prefix[:0]})
	}
	b.text, b.ends, b.prefix = nil, nil, nil
	b.done = true
	if reuse && hit == nil && cap(r.Lines) <= 4096 { // a remembered record's lines are the memo's
		p.lineBuf = r.Lines[:0]
	}
	if !p.opt.KeepText && (r.Kind == KindOther || p.opt.SkipOther) && r.Kind != KindServing {
		r.Lines = nil // counting needs the payload only (a serving record's one line is its payload: serving.go)
	}
	p.emit(r)
}

// ValidString copies b into a string, replacing invalid UTF-8.
func ValidString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}
