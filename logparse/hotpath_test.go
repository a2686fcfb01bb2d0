package logparse

import (
	"bytes"
	"os"
	"testing"
)

// The line path's fast forms of a head's pieces against their plain definitions (what the parser did before they
// were made fast), on every line of every fixture and on fuzzed bytes: the records cannot change if these agree.

// refParseCompileID is parseCompileID as a sequence of searches and atoi.
func refParseCompileID(b []byte) (CompileID, bool) {
	c := NoCompileID
	if len(b) > 0 && b[0] == '!' {
		slash := bytes.IndexByte(b, '/')
		if slash < 0 {
			return c, false
		}
		n, ok := atoi(b[1:slash])
		if !ok {
			return c, false
		}
		c.Autograd = n
		b = b[slash+1:]
	}
	slash := bytes.IndexByte(b, '/')
	if slash < 0 {
		return NoCompileID, false
	}
	f, ok := atoi(b[:slash])
	if !ok {
		return NoCompileID, false
	}
	rest := b[slash+1:]
	if us := bytes.IndexByte(rest, '_'); us >= 0 {
		a, ok := atoi(rest[us+1:])
		if !ok {
			return NoCompileID, false
		}
		c.Attempt = a
		rest = rest[:us]
	}
	n, ok := atoi(rest)
	if !ok {
		return NoCompileID, false
	}
	c.Frame, c.Compile = f, n
	return c, true
}

// refParseTags is parseTags by the first ']' of each tag.
func refParseTags(rest []byte, li *lineInfo) []byte {
	if len(rest) > 2 && rest[0] == '[' {
		if end := bytes.IndexByte(rest, ']'); end > 0 {
			if cid, ok := refParseCompileID(rest[1:end]); ok {
				li.cid = cid
				rest = skipSpace1(rest[end+1:])
			}
		}
	}
	if len(rest) > 4 && rest[0] == '[' && rest[1] == '_' && rest[2] == '_' {
		if end := bytes.IndexByte(rest, ']'); end > 0 && refIsIdent(rest[3:end]) {
			li.artifact = rest[3:end]
			rest = skipSpace1(rest[end+1:])
		}
	}
	return rest
}

func refIsIdent(b []byte) bool {
	for _, c := range b {
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c)) {
			return false
		}
	}
	return true
}

// refHeadInside is headInside with its six searches on every line.
func refHeadInside(b []byte) (int, headKind) {
	if len(b) < 12 {
		return -1, headNone
	}
	for _, h := range [...][]byte{hGraphBreak, hRecompiling, hHitDynamo, hHitOld, hHitOldCache, hSkipping} {
		i := bytes.Index(b, h)
		if i <= 0 {
			continue
		}
		if len(bytes.TrimSpace(b[:i])) == 0 || b[i-1] == '(' || b[i-1] == '\'' || b[i-1] == '"' {
			return -1, headNone
		}
		if bytes.HasSuffix(b[:i], hWarningColon) && isPyWarning(bytes.TrimLeft(b, " \t")) {
			return -1, headNone
		}
		if i > 2 && b[i-2] == ':' && b[i-1] == ' ' && excLine(b[bytes.LastIndexAny(b[:i-2], " \t")+1:]) {
			return -1, headNone
		}
		if k := strongHead(b[i:]); k != headNone {
			return i, k
		}
	}
	return servingBehind(b)
}

// hotPathsAgree compares the fast pieces with their definitions on b and each start of a tag in it, and
// headInside on b and on b behind its rank prefixes.
func hotPathsAgree(t *testing.T, b []byte) {
	t.Helper()
	var li lineInfo
	for _, s := range [][]byte{b, decodeChannel(b, &li)} {
		ga, gh := headInside(s)
		wa, wh := refHeadInside(s)
		if ga != wa || gh != wh {
			t.Fatalf("headInside(%q) = %d %v; want %d %v", s, ga, gh, wa, wh)
		}
	}
	for i := 0; i < len(b); i++ {
		if i > 0 && b[i] != '[' {
			continue
		}
		s := b[i:]
		var got, want lineInfo
		got.cid, want.cid = NoCompileID, NoCompileID
		gr, wr := parseTags(s, &got), refParseTags(s, &want)
		// the artifacts are the same bytes of s: the same length, ending as far from s's end (cap)
		if len(gr) != len(wr) || got.cid != want.cid || len(got.artifact) != len(want.artifact) ||
			cap(got.artifact) != cap(want.artifact) || (got.artifact == nil) != (want.artifact == nil) {
			t.Fatalf("parseTags(%q): rest %d cid %v artifact %q; want rest %d cid %v artifact %q", s, len(gr), got.cid, got.artifact, len(wr), want.cid, want.artifact)
		}
		if end := bytes.IndexByte(s, ']'); end > 0 && s[0] == '[' {
			gc, gok := parseCompileID(s[1:end])
			wc, wok := refParseCompileID(s[1:end])
			if gc != wc || gok != wok {
				t.Fatalf("parseCompileID(%q) = %v %v; want %v %v", s[1:end], gc, gok, wc, wok)
			}
		}
		if isIdent(s) != refIsIdent(s) {
			t.Fatalf("isIdent(%q) = %v", s, isIdent(s))
		}
	}
}

func TestHotPathsAgreeOnFixtures(t *testing.T) {
	n := 0
	for _, p := range seedFiles(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(data, []byte("\n")) {
			hotPathsAgree(t, l)
			n++
		}
	}
	for _, s := range hotPathCases {
		hotPathsAgree(t, []byte(s))
	}
	t.Logf("%d lines", n)
}

// hotPathCases are the edges of the pieces: ids of every form and their near misses, tags cut anywhere, heads
// behind text and the pairs that let a line through the one-pass filter of headInside.
var hotPathCases = []string{
	"[0/0] [__graph_breaks] x", "[0/0]x", "[0/0_1] [__recompiles] x", "[!0/1/2] y", "[!0/1/2_3] [__a-b] z",
	"[!/1/2] y", "[!0/1] y", "[0/] x", "[/0] x", "[0/1_] x", "[0/1_2_3] x", "[0/1/2] x", "[00/01] x",
	"[1234567890123456789/0] x", "[123456789012345678/0] x", "[0/0", "[0/0 ] x", "[0", "[__]", "[__] x", "[__a", "[__a b] x",
	"[__a]] x", "[__graph_breaks]x", "[0/0][__x] y", "[0/0]  [__x] y", "[0/1_2]", "[ab/0] x", "[0/0x] x",
	"INFO:root:Graph break in user code", "print: Graph break", "  Graph break at x", "x (Graph break", "DEBUG Graph breaks",
	"step 3 Recompiling function f in x.py:1", "a torch._dynamo hit config.recompile_limit (8)", "x torchdynamo hit config.cache_size_limit (8)",
	"y torchdynamo hit recompilation cache limit (64)", "zz skipping cudagraphs due to mutated inputs", "x skipping cudagraph",
	"torch._dynamo.exc.Unsupported: Graph break due to x", "w.py:3: UserWarning: Graph break from x", "ah hh oo gg h b",
	"[monitor.py:12] Compiling a graph for dynamic shape takes 3.2 s", "INFO 05-01 [backends.py:161] Cache the graph of shape None",
}

// FuzzHotPaths: the fast pieces of the line path agree with their definitions on any bytes:
// go test ./logparse -run '^$' -fuzz FuzzHotPaths -fuzztime 1m
func FuzzHotPaths(f *testing.F) {
	for _, s := range hotPathCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { hotPathsAgree(t, b) })
}
