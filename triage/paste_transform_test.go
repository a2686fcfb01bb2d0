package triage

import (
	"fmt"
	"regexp"
	"strings"
)

// Transformations of real fixture text the way a person or a tool pastes it (docs: pasted-logs.md). Each takes
// the lines of a fixture (no trailing newline) and returns the pasted lines.

type transform func(lines []string) []string

// eachLine puts head in front of every line.
func eachLine(head string) transform {
	return func(lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = head + l
		}
		return out
	}
}

// shipper is a CRI log line per line: "2024-05-01T10:00:00.000123456Z stderr F <line>".
func shipper(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = fmt.Sprintf("2024-05-01T10:%02d:%02d.%09dZ stderr F %s", i/3600%60, i/60%60, i*1000, l)
	}
	return out
}

var (
	rankPrefix = regexp.MustCompile(`^\[rank\d+\]:`)
	glogHead   = regexp.MustCompile(`^(\[rank\d+\]:)?([VIWEC]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ )(\S+:\d+\] )(.*)$`)
	gluedHead  = regexp.MustCompile(`(?m)^.*[^\s:][VIWEC]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ \S+:\d+\] `)
)

// onPrefixed applies f to the lines that start with a rank or glog prefix (a list of log lines someone bulleted,
// the hostname a shipper wrote before "[rank0]:").
func onPrefixed(f func(string) string) transform {
	return func(lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			if rankPrefix.MatchString(l) || glogHead.MatchString(l) {
				l = f(l)
			}
			out[i] = l
		}
		return out
	}
}

// doubleRank repeats the "[rankN]:" prefix: "[rank0]:[rank0]:V1121 …".
func doubleRank(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = rankPrefix.ReplaceAllStringFunc(l, func(p string) string { return p + p })
	}
	return out
}

// elideEmitter shortens the glog emitter path: ".../torch/_dynamo/guards.py:2772]".
func elideEmitter(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if m := glogHead.FindStringSubmatch(l); m != nil {
			l = m[1] + m[2] + ".../" + m[3] + m[4]
		}
		out[i] = l
	}
	return out
}

// dropGlogHead removes the glog head of the lines that carry a compile id or an artifact tag: what is left starts
// at the compile id or the artifact tag.
func dropGlogHead(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if m := glogHead.FindStringSubmatch(l); m != nil && strings.HasPrefix(m[4], "[") {
			l = m[1] + m[4]
		}
		out[i] = l
	}
	return out
}

// tbBlock is one traceback of a fixture: its lines [start, end), the channel prefix of its lines, and per
// exception of the chain the index of its exception line.
type tbBlock struct {
	start, end int
	prefix     string
	exc        []int
}

// tracebacks finds the tracebacks that start at a line "Traceback (most recent call last):" (behind a rank
// prefix or none), with their chains; a block ends before the next prefixed log line, a new traceback that does
// not continue a chain, or the end.
func tracebacks(lines []string) []tbBlock {
	var out []tbBlock
	for i := 0; i < len(lines); i++ {
		pre := rankPrefix.FindString(lines[i])
		body := strings.TrimPrefix(strings.TrimPrefix(lines[i], pre), " ")
		if body != "Traceback (most recent call last):" {
			continue
		}
		b := tbBlock{start: i, prefix: pre}
		expecting, chain := true, false
		j := i + 1
		for ; j < len(lines); j++ {
			l := lines[j]
			if !strings.HasPrefix(l, pre) || glogHead.MatchString(l) || pre == "" && rankPrefix.MatchString(l) {
				break
			}
			t := strings.TrimPrefix(strings.TrimPrefix(l, pre), " ")
			switch {
			case t == "Traceback (most recent call last):":
				if !chain {
					break
				}
				expecting, chain = true, false
				continue
			case strings.HasPrefix(t, "The above exception") || strings.HasPrefix(t, "During handling of the above"):
				chain = true
				continue
			case expecting && t != "" && t[0] != ' ':
				b.exc = append(b.exc, j)
				expecting = false
				continue
			case strings.TrimSpace(t) != "":
				chain = false
				continue
			default:
				continue
			}
			break
		}
		b.end = j
		if len(b.exc) > 0 {
			out = append(out, b)
		}
		i = j - 1
	}
	return out
}

// replaceBlocks rewrites every traceback with f.
func replaceBlocks(f func(lines []string, b tbBlock) []string) transform {
	return func(lines []string) []string {
		var out []string
		at := 0
		for _, b := range tracebacks(lines) {
			out = append(out, lines[at:b.start]...)
			out = append(out, f(lines, b)...)
			at = b.end
		}
		return append(out, lines[at:]...)
	}
}

// headless drops every "Traceback (most recent call last):" header and its frames: what is left of each
// exception of a chain is its exception line and message (the c10d excepthook one-liner when rank-prefixed).
var headless = replaceBlocks(func(lines []string, b tbBlock) []string {
	var out []string
	for k, e := range b.exc {
		end := b.end
		if k+1 < len(b.exc) {
			end = b.exc[k+1]
			for end > e && !strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(lines[end-1], b.prefix)), "Traceback") {
				end--
			}
			end-- // the next "Traceback" header
		}
		out = append(out, lines[e:end]...)
	}
	return out
})
