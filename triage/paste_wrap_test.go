package triage

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// IPython's and pytest's forms of a fixture's tracebacks (pasted-logs.md §1), written from the Python form.

// tbSegment is one exception of a chain: its frames and its exception line with the message after it.
type tbSegment struct {
	frames []logparse.Frame
	exc    string   // the exception line
	rest   []string // the message lines, then the chain separator when another exception follows
}

func segments(lines []string, b tbBlock) []tbSegment {
	var out []tbSegment
	hdr := b.start
	for k, e := range b.exc {
		end := b.end
		if k+1 < len(b.exc) {
			end = b.exc[k+1]
			for end > e && strings.TrimSpace(lines[end-1]) != "Traceback (most recent call last):" {
				end--
			}
			end--
		}
		s := tbSegment{exc: lines[e], rest: lines[e+1 : end]}
		for i := hdr + 1; i < e; i++ {
			if f, ok := parseFrame(lines[i]); ok {
				if i+1 < e && strings.HasPrefix(lines[i+1], "    ") && !strings.Contains(lines[i+1], `File "`) {
					f.Code = strings.TrimSpace(lines[i+1])
				}
				s.frames = append(s.frames, f)
			}
		}
		out = append(out, s)
		hdr = end
	}
	return out
}

// parseFrame reads `  File "x.py", line 12, in f`.
func parseFrame(l string) (logparse.Frame, bool) {
	var f logparse.Frame
	t := strings.TrimSpace(l)
	if !strings.HasPrefix(t, `File "`) {
		return f, false
	}
	if _, err := fmt.Sscanf(strings.ReplaceAll(t[len(`File "`):], `", line `, " "), "%s %d", &f.File, &f.Line); err != nil {
		return f, false
	}
	if i := strings.Index(t, ", in "); i >= 0 {
		f.Func = t[i+len(", in "):]
	}
	return f, true
}

// shortClass is the class of an exception line without its module: "torch._dynamo.exc.Unsupported: x" →
// "Unsupported" and the rest ": x".
func shortClass(exc string) (string, string) {
	cls, rest := exc, ""
	if c := strings.Index(exc, ": "); c > 0 {
		cls, rest = exc[:c], exc[c:]
	} else if strings.HasSuffix(exc, ":") {
		cls, rest = exc[:len(exc)-1], ":"
	}
	return cls[strings.LastIndexByte(cls, '.')+1:], rest
}

// ipython writes a bare traceback as a notebook shows it: a rule, "Class   Traceback (most recent call last)"
// in colour, "Cell In[4], line N" / "File x.py:N, in f(...)" frames with "---->" arrows, and the class without
// its module on the exception line.
var ipython = replaceBlocks(func(lines []string, b tbBlock) []string {
	if b.prefix != "" {
		return lines[b.start:b.end]
	}
	out := []string{strings.Repeat("-", 75)}
	for k, s := range segments(lines, b) {
		short, rest := shortClass(s.exc)
		out = append(out, fmt.Sprintf("\x1b[0;31m%-42s\x1b[0mTraceback (most recent call last)", short))
		for i, f := range s.frames {
			if i == 0 && k == 0 && f.Func == "<module>" { // the notebook's cell
				out = append(out, fmt.Sprintf("Cell In[4], line %d", f.Line), fmt.Sprintf("\x1b[0;32m----> %d\x1b[0m %s", f.Line, f.Code), "")
				continue
			}
			out = append(out, fmt.Sprintf("File \x1b[0;32m%s:%d\x1b[0m, in %s(*args, **kwargs)", f.File, f.Line, f.Func),
				fmt.Sprintf("   %d     pass", f.Line-1), fmt.Sprintf("-> %d     %s", f.Line, f.Code), "")
		}
		out = append(out, "\x1b[0;31m"+short+"\x1b[0m"+rest)
		out = append(out, s.rest...)
	}
	return out
})

// pytest writes a bare traceback as pytest's long report shows a failed test: the test's source with ">", the
// frames as "path:N: in f", the exception and its message on "E   " lines, then "path:N: Class"; a short test
// summary after it.
var pytest = replaceBlocks(func(lines []string, b tbBlock) []string {
	if b.prefix != "" {
		return lines[b.start:b.end]
	}
	out := []string{strings.Repeat("_", 30) + " test_paste " + strings.Repeat("_", 30), "",
		"    def test_paste():", ">       run_model()", "", "test_paste.py:12: ", strings.Repeat("_ ", 40)}
	segs := segments(lines, b)
	for _, s := range segs {
		var last logparse.Frame
		for _, f := range s.frames {
			out = append(out, "", fmt.Sprintf("%s:%d: in %s", f.File, f.Line, f.Func), "    "+f.Code)
			last = f
		}
		msg, sep := s.rest, []string(nil)
		for i, l := range msg {
			if strings.HasPrefix(l, "The above exception") || strings.HasPrefix(l, "During handling of the above") {
				msg, sep = msg[:i], msg[i:]
				break
			}
		}
		for len(msg) > 0 && strings.TrimSpace(msg[len(msg)-1]) == "" {
			msg = msg[:len(msg)-1]
		}
		out = append(out, "E   "+s.exc)
		for _, l := range msg {
			out = append(out, strings.TrimRight("E   "+l, " "))
		}
		short, _ := shortClass(s.exc)
		out = append(out, "", fmt.Sprintf("%s:%d: %s", last.File, last.Line, short))
		out = append(out, sep...)
	}
	exc := segs[len(segs)-1].exc
	return append(out, strings.Repeat("=", 27)+" short test summary info "+strings.Repeat("=", 27),
		"FAILED test_paste.py::test_paste - "+exc, strings.Repeat("=", 30)+" 1 failed in 9.81s "+strings.Repeat("=", 30))
})
