package logparse

import "bytes"

// An exception the program caught and logged is not what a process died of (pasted-logs.md §1). Python's
// logging prints logger.exception("msg") in its default format ("%(levelname)s:%(name)s:%(message)s") as
// "ERROR:root:msg" (or "ERROR:<logger>:msg") and, right under it, the traceback with its "Traceback (most recent
// call last):" header: a bare traceback like the one of a dying process. What tells them apart is what comes
// after it on the same stream. A process that went on logs more: torch's records (stderr, like the traceback),
// or the next traceback (the same exception raised again, now uncaught, or another one). A process that died
// prints nothing of torch after its traceback; its buffered stdout (print output) can still come after it in a
// combined log, so print output is no evidence, and neither is a launcher's report of the child's exit.
//
// A traceback is caught when the line right before its header is such an ERROR line (behind the same
// indentation or pod name as the header) and a line of the same channel that shows the process went on ends it.
// A traceback that is the last thing in its input stays fatal, also after an ERROR line (logger.exception, then
// exit or re-raise).

// logErrorAt is 1 + where an "ERROR:<logger>:" line of Python's logging starts in a bare line (after code-block
// indentation or a pod name, as a traceback header after them: podHead), 0 when the line is none. torchrun's own
// ERROR lines (older torchelastic logged a child's death in this format, its traceback under it) are none.
func logErrorAt(b []byte) int {
	i := indentOf(b)
	if i == 0 {
		i = podName(b)
	}
	if level, name := pyLog(b[i:]); string(level) != "ERROR" || isLauncher(name) {
		return 0
	}
	return i + 1
}

// pyLog splits a line of Python logging's default format ("%(levelname)s:%(name)s:%(message)s", e.g.
// "INFO:root:…") into its level and logger name; nil when the line is none.
func pyLog(r []byte) (level, name []byte) {
	i := bytes.IndexByte(r[:min(len(r), 9)], ':')
	if i < 4 {
		return nil, nil
	}
	switch string(r[:i]) {
	case "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL":
	default:
		return nil, nil
	}
	rest := r[i+1:]
	end := bytes.IndexByte(rest, ':')
	if end <= 0 {
		return nil, nil
	}
	for _, c := range rest[:end] {
		if !(c == '_' || c == '.' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c)) {
			return nil, nil
		}
	}
	return r[:i], rest[:end]
}

// goesOn reports a line that shows the process lived on after an exception that the line ends (body: the line
// without its indentation or pod name): a torch log record (not torchrun's report of a child's exit), a torch
// record head behind other text or without its prefix, the next traceback, or a line of the program's own
// logging (stderr, unbuffered: not the buffered print output a dying process leaves behind; torchrun's not).
func goesOn(li *lineInfo, body []byte) bool {
	switch li.style {
	case styleGlog, styleDate, styleTags:
		return !isLauncher(li.emitter)
	case styleBare:
		if at, _ := headInside(body); at > 0 {
			return true
		}
		if level, name := pyLog(body); level != nil {
			return !isLauncher(name)
		}
		return strongHead(body) != headNone || bytes.HasPrefix(body, hTraceback)
	}
	return false
}

// isLauncher: torchrun's (torchelastic's) emitters, which report a child's exit after the child died.
func isLauncher(e []byte) bool {
	return bytes.Contains(e, []byte("distributed/elastic/")) || bytes.Contains(e, []byte("distributed.elastic")) ||
		bytes.Contains(e, []byte("distributed/run.py")) || bytes.Contains(e, []byte("distributed.run"))
}

// lineGoesOn notes, before the line (of channel ch) ends the channel's open bare record, whether it shows the
// process went on after it.
func lineGoesOn(ch *channel, li *lineInfo, body []byte) {
	if b := ch.bare; b != nil && b.head == headTraceback && goesOn(li, body) {
		b.followed = true
	}
}

// openedBare notes what a bare traceback record that a line just opened needs to know of the line before it
// on its channel (prevErr: its logErrorAt); in a part of a parallel parse, which lines came before the line that
// ended the channel's lead is known only when the parts are joined (joinCaught).
func (p *Parser) openedBare(ch *channel, prevErr int) {
	b := ch.bare
	if b == nil || b.head != headTraceback {
		return
	}
	b.logged = prevErr > 0 && prevErr == len(b.indent)+1
	if p.leads != nil && ch.leadDone && ch.leadSeq == p.seq {
		ch.leadOpen = b
	}
}

// joinCaught settles, when part pk's lead of a channel ended, what the parts did not know alone: whether the line
// that ended the lead shows that the open traceback of the parts before went on (ck.leadGoesOn), and whether the
// traceback that line opened came right under an ERROR line of the parts before (ch: the joined channel).
func joinCaught(ch, ck *channel) {
	if ch != nil && ck.leadGoesOn && ch.bare != nil && ch.bare.head == headTraceback {
		ch.bare.followed = true
	}
	if b := ck.leadOpen; b != nil && ch != nil && ch.errAt > 0 && ch.errAt == len(b.indent)+1 {
		b.logged = true
		if b.done {
			settleCaught(b)
		}
	}
	ck.leadOpen = nil
}

// undecided: a logged traceback that no line ended yet. Whether the process goes on after it decides what it is,
// so a stream that went quiet (torch compiling the next frame) does not complete it (FlushIdle); its end does.
func (b *builder) undecided() bool { return b.head == headTraceback && b.logged && !b.followed }

// settleCaught makes a logged traceback that the process lived on after an exception no process died of.
func settleCaught(b *builder) {
	r := b.rec
	if !b.logged || !b.followed || r.Error == nil || r.Kind != KindCompileError && r.Kind != KindRuntimeError {
		return
	}
	r.Error.Caught = true
	r.Kind = KindException
}
