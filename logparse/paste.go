package logparse

import "bytes"

// Text that a person or a tool put in front of PyTorch's output (docs: pasted-logs.md §2). pasteHead decides it
// from the line alone, so every line of a record is stripped the same way and the parallel parse, which reads a
// part's lines without the lines before them, agrees with the serial one.

// pasteHead returns how many bytes at the start of line are not PyTorch's: markdown quotes ("> ", ">> "), a log
// shipper's ISO timestamp and CRI stream tag ("2024-05-01T10:00:00.123Z stderr F "), kubectl's "[pod/p/c] " and
// docker compose's "name  | " labels, and, in front of a rank or log prefix only, bullets, code-block
// indentation, pod or host names.
// indent is how much of it is whitespace right before a prefix (code-block indentation), which the bare
// continuation lines of a first-line-only record carry too.
func pasteHead(line []byte) (n, indent int) {
	if len(line) == 0 {
		return 0, 0
	}
	if c := line[0]; len(line) > 1 && (c == '[' && line[1] != 'p' || isLevel(c) && isDigit(line[1])) {
		return 0, 0 // the common case: a prefix right at the start
	}
	i := 0
	for n := 0; n < 8 && i < len(line) && line[i] == '>'; n++ {
		i++
		if i < len(line) && line[i] == ' ' {
			i++
		}
	}
	i += shipperHead(line[i:])
	rest := line[i:]
	if len(rest) == 0 || headAt(rest) || srunLabel(rest) > 0 {
		return i, 0
	}
	if ind := indentOf(rest); ind > 0 && ind < len(rest) && (cutHead(rest[ind:]) > 0 || rest[ind] == '[' && tagsHead(rest[ind:])) {
		return i + ind, ind // code-block indentation in front of a head cut down to its emitter or its tags
	}
	// bullets, indentation, a pod or host name: only in front of a prefix
	tokens := 0
	for j := 0; j < len(rest) && j < 160; j++ {
		if c := rest[j]; c != ' ' && c != '\t' {
			continue
		}
		for j+1 < len(rest) && (rest[j+1] == ' ' || rest[j+1] == '\t') {
			j++
		}
		if tokens++; tokens > 6 {
			break
		}
		if j+1 < len(rest) && headAt(rest[j+1:]) {
			return i + j + 1, indentOf(rest[:j+1])
		}
	}
	return i, 0
}

// indentOf is the length of the whitespace (at most 8 bytes) b starts with.
func indentOf(b []byte) int {
	i := 0
	for i < len(b) && i < 8 && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return i
}

// headIndent is what stands in front of a record head on a bare line: code-block indentation (bareHead) or a
// pod name (podHead); 0 when neither.
func headIndent(raw []byte) int {
	if ind := bareHead(raw); ind > 0 {
		return ind
	}
	return podHead(raw)
}

// bareHead is the indentation of a bare line that is a record head behind code-block indentation, 0 otherwise.
func bareHead(body []byte) int {
	n := indentOf(body)
	if n == 0 || n == len(body) {
		return 0
	}
	h := body[n:]
	if strongHead(h) != headNone || bytes.HasPrefix(h, hTraceback) || isPyWarning(h) || torchException(h) || torchCppException(h) {
		return n
	}
	return 0
}

// torchException reports an exception line of a torch class: named with its module, or as IPython names
// Dynamo's and Inductor's (bareTorchClass).
func torchException(b []byte) bool {
	if bytes.HasPrefix(b, []byte("torch.")) {
		return exceptionHead(b)
	}
	end := bytes.IndexByte(b, ':')
	if end < 0 {
		end = len(b)
	}
	return bareTorchClass(b[:end]) && exceptionHead(b)
}

// headAt reports a rank or log prefix at the start of b: "[rankN]:", torchrun's "[roleN]:", a glog, date or C++
// glog head.
func headAt(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	if b[0] != '[' {
		return looksGlog(b)
	}
	if isDigit(b[1]) {
		return len(b) > 25 && b[5] == '-' && b[8] == '-' && b[24] == ']' // [2024-02-06 10:32:24,334]
	}
	if isLevel(b[1]) && isDigit(b[2]) {
		return len(b) > 7 && isDigit(b[5]) && b[6] == ' ' // [W1121 07:45:17.692129966 file.cpp:727]
	}
	end := bytes.IndexByte(b[:min(len(b), 40)], ']')
	if end < 3 || end+1 >= len(b) || b[end+1] != ':' {
		return false
	}
	inner := b[1:end]
	i := len(inner)
	for i > 0 && isDigit(inner[i-1]) {
		i--
	}
	return i > 0 && i < len(inner) && isIdent(inner[:i])
}

// podName is the length of a pod, container or host name and the one space after it at the start of b
// ("trainer-0 "; pasted-logs.md §2: a log shipper's head), 0 when b does not start with one. It is a name by its
// shape only; callers take it off only in front of a traceback header (podHead) or a logging line.
func podName(b []byte) int {
	if len(b) < 3 || !isAlnum(b[0]) {
		return 0
	}
	i := 1
	for i < len(b) && i < 64 && (isAlnum(b[i]) || b[i] == '-' || b[i] == '.' || b[i] == '_') {
		i++
	}
	if i >= len(b) || b[i] != ' ' || !isAlnum(b[i-1]) {
		return 0
	}
	return i + 1
}

func isAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) }

// podHead is the length of the pod or container name in front of a bare traceback header
// ("trainer-0 Traceback (most recent call last):"), 0 when there is none. The record's other lines carry the
// same name: it is taken off them like code-block indentation (builder.dedent).
func podHead(b []byte) int {
	if n := podName(b); n > 0 && bytes.HasPrefix(b[n:], hTraceback) {
		return n
	}
	return 0
}

// shipperHead is the length of a log shipper's head: an ISO timestamp (with a CRI "stdout F " tag after it),
// kubectl logs --prefix "[pod/name/container] ", or docker compose "service-1  | ".
func shipperHead(b []byte) int {
	if n := isoStamp(b); n > 0 {
		for _, tag := range [...]string{"stdout F ", "stderr F ", "stdout P ", "stderr P "} {
			if bytes.HasPrefix(b[n:], []byte(tag)) {
				return n + len(tag)
			}
		}
		return n
	}
	if bytes.HasPrefix(b, []byte("[pod/")) {
		if end := bytes.Index(b, []byte("] ")); end > 0 && bytes.IndexByte(b[:end], ' ') < 0 {
			return end + 2
		}
	}
	// docker compose: "trainer-1  | "
	j := 0
	for j < len(b) && j < 64 && (isIdent(b[j:j+1]) || b[j] == '.') {
		j++
	}
	if j > 2 && j < len(b) && b[j] == ' ' && isDigit(b[j-1]) { // compose names its containers "<service>-<n>"
		k := j
		for k < len(b) && b[k] == ' ' {
			k++
		}
		if k+1 < len(b) && b[k] == '|' && b[k+1] == ' ' {
			return k + 2
		}
	}
	return 0
}

// isoStamp is the length of "2024-05-01T10:00:00(.123456789)(Z|+02:00)" (or with a space for the T) and the
// spaces after it, 0 when b does not start with one.
func isoStamp(b []byte) int {
	if len(b) < 20 || !isDigit(b[0]) || !isDigit(b[3]) || b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != ' ') ||
		b[13] != ':' || b[16] != ':' || !isDigit(b[18]) {
		return 0
	}
	i := 19
	if i < len(b) && (b[i] == '.' || b[i] == ',') {
		i++
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	switch {
	case i < len(b) && b[i] == 'Z':
		i++
	case i+5 < len(b) && (b[i] == '+' || b[i] == '-') && isDigit(b[i+1]):
		i += 3
		if b[i] == ':' {
			i++
		}
		i += 2
	}
	if i >= len(b) || b[i] != ' ' {
		return 0
	}
	for i < len(b) && b[i] == ' ' {
		i++
	}
	return i
}

// parseBareTags decodes a line whose glog head was cut off in front of its tags (pasted-logs.md §3):
// "[40/0] [__graph_breaks] msg", "[__cudagraphs] [0/0] msg" (the artifact first, as 2.11's cudagraph trees
// print it), "[__recompiles] msg" or "[0/1] msg".
func parseBareTags(b []byte, li *lineInfo) bool {
	if len(b) < 6 || b[0] != '[' || !(b[1] == '_' || b[1] == '!' || isDigit(b[1])) {
		return false
	}
	rest := parseTags(b, li)
	if len(rest) == len(b) {
		return false
	}
	if li.cid == NoCompileID && len(rest) > 2 && rest[0] == '[' {
		if end := bytes.IndexByte(rest, ']'); end > 0 {
			if cid, ok := parseCompileID(rest[1:end]); ok {
				li.cid = cid
				rest = skipSpace1(rest[end+1:])
			}
		}
	}
	li.style = styleTags
	li.prefix = b[:len(b)-len(rest)]
	li.body = rest
	return true
}

// parseCutHead decodes a glog head a reporter cut down to its emitter, "path:line]" (pasted-logs.md §3), the
// rest of the head gone: ".../output_code.py:1234] msg", "torch/_inductor/scheduler.py:6545] [0/0] [__cudagraphs]
// msg". The emitter is a Python file's (".py:N]", no space in it) and a space or the line's end follows it.
func parseCutHead(b []byte, li *lineInfo) bool {
	end := cutHead(b)
	if end < 0 {
		return false
	}
	src := b[:end]
	li.style = styleTags
	li.emitter = src
	rest := skipSpace1(b[end+1:])
	rest = parseTags(rest, li)
	li.prefix = b[:len(b)-len(rest)]
	li.body = rest
	return true
}

// tagsHead reports a glog head cut at its compile id or artifact tag at the start of b (parseBareTags).
func tagsHead(b []byte) bool {
	var li lineInfo
	return parseBareTags(b, &li)
}

// cutHead is where the "path.py:N" of a head cut down to its emitter ends (its ']'), or -1.
func cutHead(b []byte) int {
	if len(b) < 6 || b[0] == ' ' || b[0] == '[' {
		return -1
	}
	end := bytes.IndexByte(b[:min(len(b), 300)], ']')
	if end < 5 || end+1 < len(b) && b[end+1] != ' ' {
		return -1
	}
	src := b[:end]
	colon := bytes.LastIndexByte(src, ':')
	if colon < 4 || !bytes.HasSuffix(src[:colon], []byte(".py")) || bytes.IndexByte(src, ' ') >= 0 {
		return -1
	}
	if _, ok := atoi(src[colon+1:]); !ok {
		return -1
	}
	return end
}

// longerPrefix reports a line that starts with the raw prefix of the line before but whose own prefix is longer,
// so that the fast paths (which compare raw prefixes) must not take it as the same record: its body starts with a
// compile id or an artifact tag ("[3/0] " then "[3/0] [__graph_breaks] "), or with the space that ends a prefix
// when the raw prefix ended without one ("[0/0]Created …" then "[0/0] …").
func longerPrefix(raw, body []byte) bool {
	if len(body) == 0 {
		return false
	}
	if body[0] == ' ' {
		return len(raw) > 0 && raw[len(raw)-1] != ' '
	}
	return len(body) > 2 && body[0] == '[' && (body[1] == '_' || body[1] == '!' || isDigit(body[1]))
}
