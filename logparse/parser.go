package logparse

import (
	"bytes"
	"io"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Options configures a Parser.
type Options struct {
	Input    string // name put on every record
	Stream   string // "stdout", "stderr" or ""
	Rank     int    // rank for records whose lines carry none (from a file name); -1 for none
	KeepText bool   // keep the lines of KindOther records (the UI's raw log); counting does not need them
	MaxLine  int    // bytes kept of one line (default 64 KiB); the rest is dropped and the record marked Truncated
	MaxLines int    // lines kept of one record (default 20000)
	// SkipOther does not build records without a known head (KindOther): counting needs only the others.
	// Their ranks still reach OnRank.
	SkipOther bool
	OnRank    func(rank int) // called once for every rank seen in a line prefix (optional)
	OnFacts   func(Facts)    // called once at the end of the input with what its lines showed (optional)
	memo      *breakMemo     // graph-break payloads by text, shared by the parsers of one load (memo.go)
}

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

// Parser assembles records from a byte stream. Feed it with Write (chunks may split lines anywhere), then Flush.
// It is not safe for concurrent use.
type Parser struct {
	opt     Options
	emit    func(*Record)
	lineNo  int
	pending []byte // bytes of an unfinished line
	pendCut bool   // the unfinished line was already cut at MaxLine
	chans   map[chanKey]*channel
	// fast path: the raw prefix (channel + log prefix) of the last prefixed line and its builder
	lastRaw []byte
	lastB   *builder
	lastPID int // the last pid noted in facts (most lines repeat it)
	// SkipOther fast path: the raw prefix of the last skipped (unbuilt) record
	lastSkip []byte
	ranks    map[int]bool
	crlf     bool // the current line may hold '\r' or ESC bytes
	// parallel parsing (split.go): this parser reads part `part`; for part > 0 the first lines of each channel
	// may continue a record of the part before, so they are held as leads until the parts are joined.
	part    int
	leads   map[chanKey]*lead
	lastKey chanKey // cache of the last channel looked up
	lastCh  *channel
	li      lineInfo // the line being decoded (reused: no copy per line)
	seq     int      // lines handled so far ('\r' splits one input line into several)
	// closeLate is 1 while a join ends a record after what the line that ends it ends itself (split.go)
	closeLate int
	free      []textBuf // text buffers of finished records, for the next ones
	names     names     // the emitters and artifacts of records, each made a string once
	lineBuf   []string  // Record.Lines of a counted graph break or recompile, reused (finish)
	facts     Facts
}

type chanKey struct{ local, rank int }

type textBuf struct {
	text   []byte
	ends   []int
	prefix []byte
}

type channel struct {
	log      *builder // the open prefixed record
	bare     *builder // the open unprefixed record (traceback, stack dump, user output)
	skip     []byte   // log prefix of the open record that is not built (SkipOther): its lines are dropped
	leadDone bool     // parallel parsing: a line of this channel could not continue the part before's records
	leadSeq  int      // and its place among the part's lines (Parser.seq)
	leadBare bool     // that line was unprefixed: a prefixed record of the part before may go on after it
	logAt    int      // and then the place of the next line that ends such a record (a record head), 0 if none
	// caught.go: logErrorAt of the channel's last line (0 after a prefixed one); whether the line that ended the
	// lead shows the process went on, and the traceback it opened
	errAt      int
	leadGoesOn bool
	leadOpen   *builder
}

// logHead notes, for a part after the first, where the channel's first record head after its lead is.
func (p *Parser) logHead(ch *channel) {
	if p.leads != nil && ch.leadBare && ch.logAt == 0 {
		ch.logAt = p.seq
	}
}

// NewParser returns a parser that calls emit for every complete record.
func NewParser(opt Options, emit func(*Record)) *Parser {
	if opt.MaxLine <= 0 {
		opt.MaxLine = 64 << 10
	}
	if opt.MaxLines <= 0 {
		opt.MaxLines = 20000
	}
	return &Parser{opt: opt, emit: emit, chans: map[chanKey]*channel{}, ranks: map[int]bool{}}
}

// Parse reads r to the end and emits its records.
func Parse(r io.Reader, opt Options, emit func(*Record)) error {
	p := NewParser(opt, emit)
	err := feed(p, r)
	p.Flush()
	if opt.OnFacts != nil {
		opt.OnFacts(p.facts)
	}
	return err
}

// Facts returns what the lines read so far showed beyond their records.
func (p *Parser) Facts() Facts { return p.facts }

// Write feeds bytes. It never fails.
func (p *Parser) Write(b []byte) (int, error) {
	n := len(b)
	// nextCR / nextESC: where the next '\r' / ESC byte is in b (len(b) when none is left); each is searched
	// again only once passed, so a line is checked for them in O(1) and the chunk is scanned once per byte.
	nextCR, nextESC := indexOrLen(b, 0, '\r'), indexOrLen(b, 0, 0x1b)
	start := 0
	for start < len(b) {
		nl := bytes.IndexByte(b[start:], '\n')
		if nl < 0 {
			p.addPending(b[start:])
			break
		}
		end := start + nl
		p.crlf = nextCR < end || nextESC < end
		if len(p.pending) > 0 || p.pendCut {
			p.addPending(b[start:end])
			p.crlf = p.crlf || hasSpecial(p.pending) // the line's start came with an earlier chunk
			p.physLine(p.pending, p.pendCut)
			p.pending, p.pendCut = p.pending[:0], false
		} else if nl > p.opt.MaxLine {
			p.physLine(b[start:start+p.opt.MaxLine], true)
		} else {
			p.physLine(b[start:end], false)
		}
		start = end + 1
		if nextCR < start {
			nextCR = indexOrLen(b, start, '\r')
		}
		if nextESC < start {
			nextESC = indexOrLen(b, start, 0x1b)
		}
	}
	return n, nil
}

// indexOrLen is the index of the first c in b at or after from, or len(b).
func indexOrLen(b []byte, from int, c byte) int {
	if i := bytes.IndexByte(b[from:], c); i >= 0 {
		return from + i
	}
	return len(b)
}

// hasSpecial reports whether line holds a '\r' or an ESC byte (progress bars, CRLF, ANSI colours).
func hasSpecial(line []byte) bool {
	return bytes.IndexByte(line, '\r') >= 0 || bytes.IndexByte(line, 0x1b) >= 0
}

func (p *Parser) addPending(b []byte) {
	room := p.opt.MaxLine - len(p.pending)
	if len(b) > room {
		b = b[:max(room, 0)]
		p.pendCut = true
	}
	p.pending = append(p.pending, b...)
}

// Flush ends the input: a final line without newline is parsed and every open record is emitted.
func (p *Parser) Flush() {
	p.endLine()
	p.FlushRecords()
}

// endLine parses an unfinished last line (input without a trailing newline); records stay open.
func (p *Parser) endLine() {
	if len(p.pending) > 0 && glogStart(p.pending) {
		p.facts.CutLine = true
	}
	if len(p.pending) > 0 || p.pendCut {
		p.crlf = hasSpecial(p.pending)
		p.physLine(p.pending, p.pendCut)
		p.pending, p.pendCut = p.pending[:0], false
	}
}

// FlushRecords emits every open record (for a live stream that went idle); an unfinished line stays pending.
func (p *Parser) FlushRecords() {
	for _, k := range sortedKeys(p.chans) { // a fixed order: the same records come out in the same order
		ch := p.chans[k]
		p.close(&ch.log)
		p.close(&ch.bare)
	}
	p.resetCaches()
}

// FlushIdle emits the open records that no line joined after line mark (a value of Lines() taken earlier): a
// live stream's records whose channel went idle while other channels, or output on the same channel that does
// not continue them, go on. Every record notes its last line anyway, so this costs nothing per line; FlushIdle
// of Lines() is FlushRecords, but for a logged traceback that nothing ended yet (caught.go: what follows decides
// whether it was fatal). An unfinished line stays pending.
func (p *Parser) FlushIdle(mark int) {
	closed := false
	for _, k := range sortedKeys(p.chans) { // the order of FlushRecords
		ch := p.chans[k]
		for _, slot := range []**builder{&ch.log, &ch.bare} {
			if b := *slot; b != nil && b.rec.LastLine <= mark && !b.undecided() {
				p.close(slot)
				closed = true
			}
		}
	}
	if closed {
		p.resetCaches()
	}
}

// OldestOpen returns the last line of the open record with a known head (a graph break, a recompile, …: not
// plain output) that no line joined for the longest, the next one FlushIdle can complete; 0 when none is open.
func (p *Parser) OldestOpen() int {
	oldest := 0
	for _, ch := range p.chans {
		for _, b := range [2]*builder{ch.log, ch.bare} {
			if b != nil && b.head != headNone && !b.undecided() && (oldest == 0 || b.rec.LastLine < oldest) {
				oldest = b.rec.LastLine
			}
		}
	}
	return oldest
}

// resetCaches forgets the fast paths' memory of the last line (its prefix, builder and channel).
func (p *Parser) resetCaches() {
	p.lastRaw, p.lastB, p.lastSkip, p.lastCh = p.lastRaw[:0], nil, p.lastSkip[:0], nil
}

// Lines reports how many lines have been read.
func (p *Parser) Lines() int { return p.lineNo }

// physLine handles one newline-terminated line; '\r' also ends a line (progress bars), CRLF is one end.
func (p *Parser) physLine(line []byte, cut bool) {
	p.lineNo++
	if !p.crlf {
		p.line(line, cut)
		return
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	for {
		cr := bytes.IndexByte(line, '\r')
		if cr < 0 {
			p.line(line, cut)
			return
		}
		if cr > 0 {
			p.line(line[:cr], false)
		}
		line = line[cr+1:]
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
	// an artifact tag says which TORCH_LOGS name was on, also behind a head cut at the tag (pasted text); not on a
	// W/E/C line of an artifact on by default (cudagraphs' skips from 2.11): those print under any TORCH_LOGS
	if (li.style == styleGlog || li.style == styleDate || li.style == styleTags) && len(li.artifact) > 0 && !p.facts.Artifacts[string(li.artifact)] &&
		(!warnLevel(li.level) || string(li.artifact) == "perf_hints") {
		p.facts.note(string(li.artifact))
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
		if strongHead(body) == headNone && !startsBareRecord(body) {
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
	b := &builder{
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
			Level: li.level, PID: li.pid, CompileID: li.cid, FirstLine: p.lineNo, Time: parseWhen(li.when),
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
	}
}

func (p *Parser) finish(b *builder) {
	r := b.rec
	r.partFirst, r.partLast, r.closedAt = b.part, b.lastPart, 2*p.seq+p.closeLate
	r.plain = b.head == headNone
	// counting keeps no lines: those of a graph break or a recompile (whose payload keeps strings of them, not
	// the slice) are made in a slice that the next record reuses
	reuse := p.opt.SkipOther && !p.opt.KeepText && (b.head == headBreak || b.head == headRecompile)
	memo := p.opt.memo
	if b.head != headBreak || !reuse {
		memo = nil
	}
	var text string
	hit := memo.get(b.text, b.ends)
	switch {
	case hit != nil:
		hit.apply(r)
	case reuse:
		r.Lines, text = b.lines(p.lineBuf)
	default:
		r.Lines, _ = b.lines(nil)
	}
	if hit == nil {
		classify(b)
		memo.put(text, b.ends, r)
	} else {
		r.Era = eraEvidence(b)
	}
	if len(p.free) < 16 && cap(b.text) <= 1<<20 { // text buffers are reused: most records are short
		p.free = append(p.free, textBuf{b.text[:0], b.ends[:0], b.prefix[:0]})
	}
	b.text, b.ends, b.prefix = nil, nil, nil
	b.done = true
	if reuse && hit == nil && cap(r.Lines) <= 4096 { // a remembered record's lines are the memo's
		p.lineBuf = r.Lines[:0]
	}
	if !p.opt.KeepText && (r.Kind == KindOther || p.opt.SkipOther) {
		r.Lines = nil // counting needs the payload only
	}
	p.emit(r)
}

// validString copies b into a string, replacing invalid UTF-8.
func validString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
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

// glogStart reports a line that starts as a glog line does ("V1121 07:47:33.827000 …"), behind a torchrun rank
// prefix ("[rank0]:") if any: enough of it to tell a torch log line cut anywhere after its time stamp's seconds.
func glogStart(b []byte) bool {
	if bytes.HasPrefix(b, []byte("[rank")) {
		if i := bytes.Index(b, []byte("]:")); i > 0 && i < 16 {
			b = b[i+2:]
		}
	}
	const shape = "L0000 00:00:00" // level, month and day, the time to the second
	if len(b) < len(shape) || bytes.IndexByte([]byte("DIWECV"), b[0]) < 0 {
		return false
	}
	for i := 1; i < len(shape); i++ {
		if c := b[i]; shape[i] == '0' && (c < '0' || c > '9') || shape[i] != '0' && c != shape[i] {
			return false
		}
	}
	return true
}
