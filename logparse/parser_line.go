package logparse

import (
	"bytes"

	"github.com/charmbracelet/x/ansi"
)

// warnLevel: a WARNING (or worse) line, which an artifact not off by default prints whatever TORCH_LOGS asked for
// (gpu-cuda-graphs-2.11.md: W-level lines appear under every preset). perf_hints is off by default: its W lines
// print only when it is on.
func warnLevel(level byte) bool { return level == 'W' || level == 'E' || level == 'C' }

func isDynamoEmitter(e []byte) bool {
	return bytes.HasPrefix(e, []byte("torch/_dynamo/")) || bytes.HasPrefix(e, []byte("torch._dynamo.")) ||
		bytes.Contains(e, []byte("/torch/_dynamo/"))
}

// isTorchEmitter: "torch/_dynamo/guards.py:2791" (glog, relative to site-packages), a path through /torch/, or a
// logger name "torch._dynamo.guards" (dated format).
func isTorchEmitter(e []byte) bool {
	return bytes.HasPrefix(e, []byte("torch/")) || bytes.HasPrefix(e, []byte("torch.")) || bytes.Contains(e, []byte("/torch/"))
}

// logHead notes, for a part after the first, where the channel's first record head after its lead is.
func (p *Parser) logHead(ch *channel) {
	if p.leads != nil && ch.leadBare && ch.logAt == 0 {
		ch.logAt = p.seq
	}
}

func (p *Parser) line(line []byte, cut bool) {
	p.seq++
	if p.crlf && bytes.IndexByte(line, 0x1b) >= 0 {
		line = []byte(ansi.Strip(string(line)))
	}
	if len(p.lastSkip) > 0 && bytes.HasPrefix(line, p.lastSkip) {
		if body := line[len(p.lastSkip):]; strongHead(body) == headNone && !longerPrefix(p.lastSkip, body) {
			return // one more line of a record that is not built
		}
	}
	// Fast path: same channel and same log prefix as the previous line.
	if p.lastB != nil && len(p.lastRaw) > 0 && bytes.HasPrefix(line, p.lastRaw) {
		body := line[len(p.lastRaw):]
		if !(p.lastB.head != headNone && strongHead(body) != headNone) && !longerPrefix(p.lastRaw, body) {
			p.lastB.prefixed++
			p.lastB.add(p, body, cut)
			return
		}
	}
	li := &p.li
	decodeLine(line, li)
	if li.style == styleGlog || li.style == styleDate {
		if !p.facts.TorchLog && isTorchEmitter(li.emitter) {
			p.facts.TorchLog = true
		}
		if li.rank < 0 && li.pid > 0 && li.pid != p.lastPID && isTorchEmitter(li.emitter) {
			p.lastPID = li.pid
			p.facts.notePID(li.pid)
		}
		if !p.facts.DynamoDebug && li.level == 'V' && len(li.artifact) == 0 && isDynamoEmitter(li.emitter) {
			p.facts.DynamoDebug = true
		}
		if !p.facts.Dynamic && (li.level == 'I' || li.level == 'V') && isDynamicEmitter(li.emitter) {
			p.facts.Dynamic = true
		}
		if !p.facts.DynamoInfo && li.level == 'I' && len(li.artifact) == 0 && isDynamoEmitter(li.emitter) && !bytes.HasPrefix(li.body, hMarking) {
			p.facts.DynamoInfo = true
		}
		if !p.facts.Torchrun && li.level != 'V' && isLauncher(li.emitter) { // the launcher logs at W and I, Dynamo's bulk at V
			p.facts.Torchrun = true
		}
	}
	// a head cut down to "path:line]" is torch's log where its emitter is torch's or a compile id or artifact
	// tag follows it (".../scheduler.py:6545] [0/0] [__cudagraphs] …": the path elided)
	if li.style == styleTags && li.emitter != nil && !p.facts.TorchLog &&
		(isTorchEmitter(li.emitter) || len(li.artifact) > 0 || li.cid != NoCompileID) {
		p.facts.TorchLog = true
	}
	// an artifact tag says which TORCH_LOGS name was on, also behind a head cut at the tag (pasted text); not on a
	// W/E/C line of an artifact on by default (cudagraphs' skips from 2.11): those print under any TORCH_LOGS
	if (li.style == styleGlog || li.style == styleDate || li.style == styleTags) && len(li.artifact) > 0 && !bytes.Equal(li.artifact, p.lastArt) {
		if p.facts.Artifacts[string(li.artifact)] {
			p.lastArt = append(p.lastArt[:0], li.artifact...)
		} else if !warnLevel(li.level) || string(li.artifact) == "perf_hints" {
			p.facts.note(string(li.artifact))
			p.lastArt = append(p.lastArt[:0], li.artifact...)
		}
	}
	ch := p.channel(li)
	if p.leads != nil && p.takeLead(ch, li, line, cut) {
		return
	}
	if li.style != styleBare {
		ch.errAt = 0
	}
	switch li.style {
	case styleGlog, styleDate, styleTags:
		p.logHead(ch)
		lineGoesOn(ch, li, li.body)
		p.close(&ch.bare)
		if b := ch.log; b != nil && bytes.Equal(b.prefix, li.prefix) && !(b.head != headNone && strongHead(li.body) != headNone) {
			b.prefixed++
			b.add(p, li.body, cut)
		} else if partitionDetail(b, li) {
			b.detail = append(b.detail[:0], li.prefix...)
			b.prefixed++
			b.add(p, li.body, cut)
		} else if b == nil && len(ch.skip) > 0 && bytes.Equal(ch.skip, li.prefix) && strongHead(li.body) == headNone {
			// one more line of a record that is not built, whatever other channels printed in between
		} else {
			p.close(&ch.log)
			ch.log = p.open(li, li.body, cut)
			ch.skip = ch.skip[:0]
			if ch.log == nil {
				ch.skip = append(ch.skip, li.prefix...)
			}
		}
		raw := line[:li.chanLen+len(li.prefix)]
		if ch.log != nil {
			p.lastRaw, p.lastB, p.lastSkip = append(p.lastRaw[:0], raw...), ch.log, p.lastSkip[:0]
		} else {
			p.lastRaw, p.lastB, p.lastSkip = p.lastRaw[:0], nil, append(p.lastSkip[:0], raw...)
		}
	case styleCpp:
		p.close(&ch.bare)
		if b := p.open(li, li.body, cut); b != nil {
			p.finish(b)
		}
	default:
		p.lastRaw, p.lastB, p.lastSkip = p.lastRaw[:0], nil, p.lastSkip[:0]
		if !p.facts.TorchMessage && dynamoMessage(li.body) {
			p.facts.TorchMessage = true
		}
		if !p.facts.TorchFrames && cppTorchFrame(li.body) {
			p.facts.TorchFrames = true
		}
		p.bareLine(ch, li, cut)
	}
}

func (p *Parser) channel(li *lineInfo) *channel {
	k := chanKey{li.localRank, li.rank}
	if p.lastCh != nil && k == p.lastKey {
		return p.lastCh
	}
	if li.rank >= 0 && !p.ranks[li.rank] {
		p.ranks[li.rank] = true
		p.facts.Prefixed = true
		if p.opt.OnRank != nil {
			p.opt.OnRank(li.rank)
		}
	}
	ch := p.chans[k]
	if ch == nil {
		ch = &channel{}
		p.chans[k] = ch
	}
	p.lastKey, p.lastCh = k, ch
	return ch
}

// bareLine places a line without a log prefix: a continuation of a first-line-only record, a traceback or
// stack dump, a record glued behind other output, or plain user output.
func (p *Parser) bareLine(ch *channel, li *lineInfo, cut bool) {
	raw := li.body
	prevErr := ch.errAt
	ch.errAt = logErrorAt(raw)
	// A known record head behind an unknown prefix (TORCH_LOGS_FORMAT, output without a trailing newline).
	if at, h := headInside(raw); at > 0 {
		ind := indentOf(raw) // code-block indentation in front of it: its bare lines carry it too
		if n := podName(raw); ind == 0 && n > 0 && n < at {
			ind = n // or a log shipper's pod name (pasted-logs.md §2): taken off the bare lines that carry it (dedent)
		}
		body := raw[ind:]
		at -= ind
		p.logHead(ch)
		lineGoesOn(ch, li, raw)
		p.close(&ch.bare)
		if j := bytes.Index(body[:at], []byte("[20")); j >= 0 {
			var dl lineInfo
			dl.localRank, dl.rank, dl.cid, dl.indent = li.localRank, li.rank, NoCompileID, raw[:ind]
			if parseDate(body[j:], &dl) {
				p.close(&ch.log)
				ch.skip = ch.skip[:0]
				if ch.log = p.open(&dl, dl.body, cut); ch.log != nil {
					ch.log.firstOnly = true
				}
				return
			}
		}
		p.close(&ch.log)
		ch.skip = ch.skip[:0]
		li.style, li.prefix, li.body, li.indent = styleCustom, body[:at], body[at:], raw[:ind]
		ch.log = p.open(li, li.body, cut)
		if ch.log != nil {
			ch.log.head = h
			ch.log.firstOnly = true
		}
		return
	}
	// a record head behind code-block indentation or a pod name: its record's bare lines carry it too
	ind := headIndent(raw)
	body := raw[ind:]
	if lb := ch.log; lb != nil && lb.acceptsBare() && ch.bare == nil {
		if strongHead(body) == headNone && !startsBareRecord(body) && lb.head != headServing { // a serving line is one line
			lb.add(p, lb.dedent(raw), cut)
			return
		}
		p.close(&ch.log)
	}
	if b := ch.bare; b != nil && !b.startsNew(body) {
		b.add(p, b.dedent(raw), cut)
		return
	}
	lineGoesOn(ch, li, body)
	p.close(&ch.bare)
	li.indent = raw[:ind]
	ch.bare = p.open(li, body, cut)
	p.openedBare(ch, prevErr)
}

// partitionDetail reports a line that continues an open graph-partition record: Inductor logs "  Partition K: …",
// "    opN: reason=…" and each line of the node's stack with a call of its own, so the prefix differs from the
// head's (time stamp, emitter line); the process, level, compile id and artifact are the same and the message is
// indented.
func partitionDetail(b *builder, li *lineInfo) bool {
	if b == nil || b.head != headPartition {
		return false
	}
	if len(b.detail) > 0 && bytes.Equal(b.detail, li.prefix) && strongHead(li.body) == headNone {
		// a line with the prefix of the detail before (a blank one): what the fast path (the same raw prefix
		// as the line before) joins too, so a parse in parts that replays it does the same
		return true
	}
	return detailShaped(li) && li.level == b.rec.Level && li.pid == b.rec.PID && li.cid == b.rec.CompileID
}

// detailShaped: an indented message of the cudagraphs artifact (the shape of a partition record's details).
func detailShaped(li *lineInfo) bool {
	return len(li.body) > 1 && li.body[0] == ' ' && string(li.artifact) == "cudagraphs"
}
