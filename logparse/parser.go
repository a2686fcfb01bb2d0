package logparse

import "io"

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
	wrap      int            // the width the input was hard-wrapped at (WrapWidth): 0 not looked at, -1 not wrapped
}

// Parser assembles records from a byte stream. Feed it with Write (chunks may split lines anywhere), then Flush.
// It is not safe for concurrent use.
type Parser struct {
	opt        Options
	emit       func(*Record)
	lineNo     int
	pending    []byte // bytes of an unfinished line
	pendCut    bool   // the unfinished line was already cut at MaxLine
	held       []byte // a hard wrap's pieces waiting for the rest of their line (wrap.go)
	heldCut    bool
	heldPieces int // the physical lines held makes
	chans      map[chanKey]*channel
	// fast path: the raw prefix (channel + log prefix) of the last prefixed line and its builder
	lastRaw []byte
	lastB   *builder
	lastPID int    // the last pid noted in facts (most lines repeat it)
	lastArt []byte // an artifact tag facts holds already (most lines repeat the one before: no map lookup)
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
	buffers
	names names // the emitters and artifacts of records, each made a string once
	facts Facts
}

// buffers are what a parser reuses from one record to the next, and a parallel parse's worker from one part to
// the next (split.go): each part's parser growing its own was a fifth of what the 1 GB report allocated.
type buffers struct {
	free    []textBuf  // text buffers of finished records, for the next ones
	freeB   []*builder // builders of counted records, once closed (counting.go)
	lineBuf []string   // Record.Lines of a counted graph break or recompile, reused (finish)
	keyBuf  []byte     // the record memo's key of the record being finished (memo.go)
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

// Lines reports how many lines have been read.
func (p *Parser) Lines() int { return p.lineNo }
