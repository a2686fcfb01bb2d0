package logparse

import (
	"bytes"
)

// style is the shape of a line's log prefix.
type style uint8

const (
	styleBare   style = iota // no log prefix: user output, traceback lines, continuation lines
	styleGlog                // 2.3+: "V1121 07:45:29.809000 31643 torch/_dynamo/guards.py:2791] [0/1] [__recompiles] msg" on every line
	styleDate                // 2.0–2.2: "[2024-02-06 10:32:24,334] [0/0] logger: [DEBUG] msg" (every line, or first line only)
	styleCustom              // an unknown prefix (TORCH_LOGS_FORMAT, glued output) before a known record head: first line only
	styleCpp                 // C++ glog "[W1121 07:45:17.692129966 ProcessGroupGloo.cpp:727] msg": one line
	styleTags                // a glog head cut off before the tags: "[0/1] [__recompiles] msg" on every line
)

// lineInfo is a decoded physical line. Slices alias the line buffer.
type lineInfo struct {
	localRank int    // from a torchrun --tee "[default0]:" prefix, -1 when absent
	rank      int    // from "[rankN]:" or an srun label, -1 when absent
	chanLen   int    // length of the tee/rank prefixes (the channel part of the line)
	style     style  //
	prefix    []byte // the log prefix after the channel part (identity of a record), nil for bare lines
	level     byte   //
	pid       int    //
	when      []byte // raw timestamp
	emitter   []byte // source path:line or logger name
	cid       CompileID
	artifact  []byte
	body      []byte // the message
	indent    []byte // code-block indentation in front of the prefix (pasted text)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// atoi parses a run of ASCII digits; ok is false when b is empty or not all digits or too long.
func atoi(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if !isDigit(c) {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// decodeLine splits a line into its channel prefixes, log prefix and message.
func decodeLine(line []byte, li *lineInfo) {
	rest := decodeChannel(line, li)
	if parseGlog(rest, li) || parseDate(rest, li) || parseCpp(rest, li) || parseBareTags(rest, li) || parseCutHead(rest, li) {
		return
	}
	if gluedGlog(rest, li) > 0 { // (li.chanLen takes in what stands in front: the program's output, no part of the record)
		return
	}
	if j := gluedTags(rest); j > 0 && parseBareTags(rest[j:], li) {
		li.chanLen += j
		return
	}
	li.body = rest
}

// gluedTags finds a glog head cut at its compile id or artifact tag (pasted text: "[0/1] [__recompiles] msg")
// behind other output on the same line, a progress bar's most often: " 45%|████▌ | 9/20 [00:03<00:04][0/1]
// [__recompiles]     - 0/0: …". It needs the artifact tag: where the head starts ("[F/C] " right in front of the
// tag, or the tag), or -1.
func gluedTags(b []byte) int {
	i := bytes.Index(b, []byte("[__"))
	if i <= 0 {
		return -1
	}
	if e := bytes.IndexByte(b[i:], ']'); e < 4 || !isIdent(b[i+3:i+e]) || i+e+1 < len(b) && b[i+e+1] != ' ' {
		return -1
	}
	j := i
	if i > 2 && b[i-1] == ' ' && b[i-2] == ']' {
		if k := bytes.LastIndexByte(b[:i-2], '['); k >= 0 {
			if _, ok := parseCompileID(b[k+1 : i-2]); ok {
				j = k
			}
		}
	}
	if len(bytes.TrimSpace(b[:j])) == 0 {
		return -1 // only indentation in front: not glued
	}
	return j
}

// gluedGlog finds a glog head behind other output on the same line — output without a trailing newline, a
// progress bar without one, before the next log line (torch-log-formats.md §9: "a record can start mid-line"):
// "step 1 ...V1207 10:00:00.000000 12 torch/_dynamo/x.py:5] [0/0] [__graph_breaks] msg". It decodes the line from
// that head on (with the [rankN]: and [roleN]: channel prefixes right in front of it) into li and returns where
// its channel part starts, or -1. The scan looks only at "path:line]" ends: a ']' after a digit.
func gluedGlog(b []byte, li *lineInfo) int {
	for off := 0; off < len(b); {
		e := bytes.IndexByte(b[off:], ']')
		if e < 0 {
			return -1
		}
		e += off
		off = e + 1
		if e < 24 || !isDigit(b[e-1]) {
			continue
		}
		s := bytes.LastIndexByte(b[:e], ' ') // in front of the emitter
		if s < 22 {
			continue
		}
		t := bytes.LastIndexByte(b[:s], ' ') // in front of the pid
		if t < 20 {
			continue
		}
		u := bytes.LastIndexByte(b[:t], ' ') // in front of the time; "LMMDD" before it
		j := u - 5
		if u < 0 || j <= 0 || !isLevel(b[j]) {
			continue
		}
		var g lineInfo
		g.localRank, g.rank, g.cid = -1, -1, NoCompileID
		if !parseGlog(b[j:], &g) {
			continue
		}
		// channel prefixes glued with it: "...[default0]:[rank0]:V1207 …"
		k := j
		for k > 3 && b[k-1] == ':' && b[k-2] == ']' {
			i := bytes.LastIndexByte(b[max(0, k-66):k-2], '[')
			if i < 0 {
				break
			}
			i += max(0, k-66)
			inner := b[i+1 : k-2]
			if r, ok := atoi(bytes.TrimPrefix(inner, []byte("rank"))); ok && len(inner) > 4 && bytes.HasPrefix(inner, []byte("rank")) {
				if g.rank < 0 {
					g.rank = r
				}
			} else {
				n := len(inner)
				for n > 0 && isDigit(inner[n-1]) {
					n--
				}
				if n == 0 || n == len(inner) || !isIdent(inner[:n]) {
					break
				}
				if g.localRank < 0 {
					g.localRank, _ = atoi(inner[n:])
				}
			}
			k = i
		}
		if k == 0 {
			return -1 // nothing in front but channel prefixes decodeChannel did not take: leave the line as it was
		}
		if li.rank < 0 {
			li.rank = g.rank
		}
		if li.localRank < 0 {
			li.localRank = g.localRank
		}
		g.rank, g.localRank, g.chanLen, g.indent = li.rank, li.localRank, li.chanLen+j, li.indent
		*li = g
		return j
	}
	return -1
}

// decodeChannel decodes what says whose a line is — a paste's head, srun's label, [rankN]: and torchrun's
// [roleN]: — into li (rank, local rank, indent, chanLen) and returns the rest of the line.
func decodeChannel(line []byte, li *lineInfo) []byte {
	*li = lineInfo{localRank: -1, rank: -1, cid: NoCompileID}
	// torchrun's "[rankN]:" and then no other channel prefix: what the rest of this function makes of such a
	// line, without its searches (no paste head or srun label starts with "[r")
	if r, n := rankPrefix(line); n > 0 && n < len(line) && line[n] != '[' {
		li.indent, li.rank, li.chanLen = line[:0], r, n
		return line[n:]
	}
	n, ind := pasteHead(line)
	li.indent = line[n-ind : n]
	rest := line[n:]
	// srun --label "12: " in front of anything that looks like a log line.
	if n := srunLabel(rest); n > 0 {
		if r, ok := atoi(bytes.TrimSpace(rest[:n-2])); ok {
			li.rank = r
			rest = rest[n:]
		}
	}
	for len(rest) > 2 && rest[0] == '[' {
		end := bytes.IndexByte(rest[:min(len(rest), 64)], ']')
		if end < 0 || end+1 >= len(rest) || rest[end+1] != ':' {
			break
		}
		inner := rest[1:end]
		if bytes.HasPrefix(inner, []byte("rank")) {
			if r, ok := atoi(inner[4:]); ok {
				li.rank = r
				rest = rest[end+2:]
				// excepthook form "[rank0]: msg": one space follows.
				if len(rest) > 0 && rest[0] == ' ' {
					rest = rest[1:]
				}
				continue
			}
			break
		}
		// torchrun --tee: "[default0]:" = role name + local rank.
		i := len(inner)
		for i > 0 && isDigit(inner[i-1]) {
			i--
		}
		if i == 0 || i == len(inner) || !isIdent(inner[:i]) {
			break
		}
		lr, _ := atoi(inner[i:])
		li.localRank = lr
		rest = rest[end+2:]
	}
	li.chanLen = len(line) - len(rest)
	return rest
}

// rankPrefix reads a "[rankN]:" (N of 1–18 digits) at the start of line and the one space the excepthook form puts
// after it: N and the bytes taken, or n 0 when line does not start so.
func rankPrefix(line []byte) (r, n int) {
	if len(line) < 8 || line[0] != '[' || line[1] != 'r' || line[2] != 'a' || line[3] != 'n' || line[4] != 'k' {
		return 0, 0
	}
	r, end := digitsAt(line, 5)
	if end < 0 || end+1 >= len(line) || line[end] != ']' || line[end+1] != ':' {
		return 0, 0
	}
	n = end + 2
	if n < len(line) && line[n] == ' ' {
		n++
	}
	return r, n
}

func isIdent(b []byte) bool {
	for _, c := range b {
		if !identByte[c] {
			return false
		}
	}
	return true
}

// identByte: the bytes of an identifier as isIdent takes it ('_', '-', ASCII letters and digits), one load a byte
// (a run of compares was a tenth of a glog head's decode).
var identByte = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return t
}()

// srunLabel returns the length of an srun --label prefix ("0: ", " 12: ") when a log line follows it.
func srunLabel(b []byte) int {
	i := 0
	for i < len(b) && i < 6 && b[i] == ' ' {
		i++
	}
	j := i
	for j < len(b) && j-i < 6 && isDigit(b[j]) {
		j++
	}
	if j == i || j+1 >= len(b) || b[j] != ':' || b[j+1] != ' ' {
		return 0
	}
	r := b[j+2:]
	if len(r) > 0 && (r[0] == '[' || bytes.HasPrefix(r, []byte("Traceback")) || looksGlog(r)) {
		return j + 2
	}
	return 0
}

func isLevel(c byte) bool {
	return c == 'V' || c == 'I' || c == 'W' || c == 'E' || c == 'C' || c == 'F' || c == 'D'
}

func looksGlog(b []byte) bool {
	return len(b) > 22 && isLevel(b[0]) && isDigit(b[1]) && isDigit(b[4]) && b[5] == ' ' && b[8] == ':'
}

// GlogHead is what a glog prefix says of its line.
type GlogHead struct {
	PID  int    // the process id
	When []byte // the raw timestamp (ParseWhen reads it); the line's bytes, not a copy
	Body []byte // the message after the prefix; the line's bytes, not a copy
}

// ParseGlogHead decodes a line's glog prefix ("L MMDD HH:MM:SS.ffffff NNN path:line] msg"), as the text parser
// does; ok is false when the line has none (what the
// fields then hold is whatever the prefix gave before it failed). For the TORCH_TRACE reader, whose every envelope line carries one.
func ParseGlogHead(line []byte) (h GlogHead, ok bool) {
	li := lineInfo{cid: NoCompileID}
	ok = parseGlog(line, &li)
	return GlogHead{PID: li.pid, When: li.when, Body: li.body}, ok
}

// parseGlog decodes "L MMDD HH:MM:SS.ffffff NNN path:line] [F/C] [__artifact] msg".
func parseGlog(b []byte, li *lineInfo) bool {
	if !looksGlog(b) {
		return false
	}
	// time ends at the next space
	sp := bytes.IndexByte(b[6:], ' ')
	if sp < 8 {
		return false
	}
	p := 6 + sp + 1
	q, pid := p, 0
	for q < len(b) && isDigit(b[q]) {
		pid = pid*10 + int(b[q]-'0')
		q++
	}
	if q == p || q >= len(b) || b[q] != ' ' {
		return false
	}
	if q-p > 18 { // as atoi reads it
		pid = 0
	}
	end := -1
	for i := q + 1; i < len(b); {
		j := bytes.IndexByte(b[i:], ']')
		if j < 0 {
			break
		}
		i += j
		if i+1 == len(b) || b[i+1] == ' ' {
			end = i
			break
		}
		i++
	}
	if end < 0 {
		return false
	}
	src := b[q+1 : end]
	colon := bytes.LastIndexByte(src, ':')
	if colon < 0 {
		return false
	}
	if _, ok := atoi(src[colon+1:]); !ok {
		return false
	}
	li.style = styleGlog
	li.level = b[0]
	li.when = b[1 : 6+sp]
	li.pid = pid
	li.emitter = src
	rest := b[end+1:]
	if len(rest) > 0 {
		rest = rest[1:]
	}
	rest = parseTags(rest, li)
	li.prefix = b[:len(b)-len(rest)]
	li.body = rest
	return true
}

// parseTags consumes the optional "[F/C] " compile id and "[__artifact] " tag.
func parseTags(rest []byte, li *lineInfo) []byte {
	if len(rest) > 2 && rest[0] == '[' {
		// the compile id between the brackets: no byte of a valid one is ']', so the first ']' ends it exactly when
		// the id read from rest[1:] stops at one
		if cid, n, ok := compileIDAt(rest[1:]); ok && n < len(rest)-1 && rest[1+n] == ']' {
			li.cid = cid
			rest = skipSpace1(rest[n+2:])
		}
	}
	if len(rest) > 4 && rest[0] == '[' && rest[1] == '_' && rest[2] == '_' {
		// the artifact: identifier bytes up to the first ']' (no identifier byte is one)
		end := len(rest)
		for i, c := range rest[3:] {
			if !identByte[c] {
				end = 3 + i
				break
			}
		}
		if end < len(rest) && rest[end] == ']' {
			li.artifact = rest[3:end]
			rest = skipSpace1(rest[end+1:])
		}
	}
	return rest
}

func skipSpace1(b []byte) []byte {
	if len(b) > 0 && b[0] == ' ' {
		return b[1:]
	}
	return b
}

// parseCompileID reads "F/C", "F/C_A" or "!N/F/C".
// ParseCompileID reads a compile id as torch prints it between brackets ("0/3", "1/0_1", "!0/0/1"): for
// readers of torch's output built on Parse.
func ParseCompileID(s string) (CompileID, bool) { return parseCompileID([]byte(s)) }

func parseCompileID(b []byte) (CompileID, bool) {
	if c, n, ok := compileIDAt(b); ok && n == len(b) {
		return c, true
	}
	return NoCompileID, false
}

// compileIDAt reads the compile id b starts with ("F/C", "F/C_A" or "!N/F/C", each number 1–18 digits) and how
// many bytes it takes; ok is false when b does not start with one. The id ends at the first byte that cannot go
// on: the caller says what must follow it.
func compileIDAt(b []byte) (c CompileID, n int, ok bool) {
	c = NoCompileID
	i := 0
	if len(b) > 0 && b[0] == '!' {
		a, j := digitsAt(b, 1)
		if j < 0 || j >= len(b) || b[j] != '/' {
			return NoCompileID, 0, false
		}
		c.Autograd, i = a, j+1
	}
	f, j := digitsAt(b, i)
	if j < 0 || j >= len(b) || b[j] != '/' {
		return NoCompileID, 0, false
	}
	k, j := digitsAt(b, j+1)
	if j < 0 {
		return NoCompileID, 0, false
	}
	if j < len(b) && b[j] == '_' {
		a, e := digitsAt(b, j+1)
		if e < 0 {
			return NoCompileID, 0, false
		}
		c.Attempt, j = a, e
	}
	c.Frame, c.Compile = f, k
	return c, j, true
}

// digitsAt reads the run of ASCII digits at b[i:] as atoi does (1–18 of them): its value and where it ends, or
// end -1 when there is none or it is too long.
func digitsAt(b []byte, i int) (n, end int) {
	j := i
	for j < len(b) && isDigit(b[j]) {
		n = n*10 + int(b[j]-'0')
		j++
	}
	if j == i || j-i > 18 {
		return 0, -1
	}
	return n, j
}

var dateLevels = map[string]byte{"DEBUG": 'V', "INFO": 'I', "WARNING": 'W', "ERROR": 'E', "CRITICAL": 'C'}

// parseDate decodes "[2024-02-06 10:32:24,334] [0/0] torch._dynamo.x: [DEBUG] msg".
func parseDate(b []byte, li *lineInfo) bool {
	if len(b) < 26 || b[0] != '[' || !isDigit(b[1]) || b[5] != '-' || b[8] != '-' || b[24] != ']' {
		return false
	}
	rest := skipSpace1(b[25:])
	rest = parseTags(rest, li)
	colon := bytes.Index(rest, []byte(": ["))
	if colon <= 0 || bytes.IndexByte(rest[:colon], ' ') >= 0 {
		return false
	}
	lvEnd := bytes.IndexByte(rest[colon+3:], ']')
	if lvEnd < 0 {
		return false
	}
	lv, ok := dateLevels[string(rest[colon+3:colon+3+lvEnd])]
	if !ok {
		return false
	}
	li.style = styleDate
	li.level = lv
	li.when = b[1:24]
	li.emitter = rest[:colon]
	if a := bytes.Index(li.emitter, []byte(".__")); a >= 0 && len(li.artifact) == 0 {
		li.artifact = li.emitter[a+3:]
	}
	msg := skipSpace1(rest[colon+3+lvEnd+1:])
	li.prefix = b[:len(b)-len(msg)]
	li.body = msg
	return true
}

// parseCpp decodes the C++ glog form "[W1121 07:45:17.692129966 file.cpp:727] msg".
func parseCpp(b []byte, li *lineInfo) bool {
	if len(b) < 20 || b[0] != '[' || !isLevel(b[1]) || !isDigit(b[2]) || !isDigit(b[5]) || b[6] != ' ' {
		return false
	}
	end := bytes.Index(b, []byte("] "))
	if end < 0 {
		if b[len(b)-1] != ']' {
			return false
		}
		end = len(b) - 1
	}
	li.style = styleCpp
	li.level = b[1]
	sp := bytes.LastIndexByte(b[:end], ' ')
	li.when = b[2:sp]
	li.emitter = b[sp+1 : end]
	li.prefix = b[:min(end+2, len(b))]
	li.body = b[len(li.prefix):]
	return true
}

// LineRank decodes the rank prefixes in front of one output line (srun's --label "N: " before a log line,
// torchrun's "[rankN]:", and --tee's "[roleN]:" local rank): the one decoder behind the report's ranks and the
// log view's rank filter. rank is -1 when the line names none, localRank -1 without a --tee prefix.
func LineRank(line []byte) (rank, localRank int) {
	var li lineInfo
	decodeChannel(line, &li)
	return li.rank, li.localRank
}

// LineHead is where one output line's log prefix lies, for the log view's prefix hiding: the glog or C++ head
// (level, time, pid, emitter) is line[from:to]; what is in front of it (the rank prefixes) and the body after it,
// which starts with the compile id ("[0/1] [__recompiles] …"), stay. ok is false for a line without such a head.
func LineHead(line []byte) (from, to int, ok bool) {
	var li lineInfo
	rest := decodeChannel(line, &li)
	if !parseGlog(rest, &li) && !parseCpp(rest, &li) {
		return 0, 0, false
	}
	from = len(line) - len(rest)
	e := bytes.Index(rest, li.emitter)
	if len(li.emitter) == 0 || e < 0 {
		return 0, 0, false
	}
	to = e + len(li.emitter)
	for to < len(rest) && (rest[to] == ']' || rest[to] == ' ') && to-e-len(li.emitter) < 2 {
		to++
	}
	return from, from + to, true
}
