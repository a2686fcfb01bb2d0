package logparse

import "strings"

// StackFrame returns where a faulthandler stack dump (a KindStack record's lines) shows its program: the innermost
// frame outside library code of the thread that runs the program's top level (a `<module>` frame of its own),
// else of the first thread with such a frame. false for a dump of library code alone, and for torchrun's own
// process (its agent's frames are the launcher's, not the program's).
func StackFrame(lines []string) (Frame, bool) {
	var best Frame
	found := false
	for _, thread := range stackThreads(lines) {
		frames := parseFrames(thread) // most recent call first
		for _, f := range frames {
			if strings.Contains(f.File, "torch/distributed/run.py") || strings.Contains(f.File, "torch/distributed/elastic/") {
				return Frame{}, false
			}
		}
		inner, ok := Frame{}, false
		top := false
		for _, f := range frames {
			if IsLibraryFile(f.File) {
				continue
			}
			if !ok {
				inner, ok = f, true
			}
			top = top || f.Func == "<module>"
		}
		if ok && (top || !found) {
			best, found = inner, true
			if top {
				break
			}
		}
	}
	return best, found
}

// stackThreads splits a dump at its thread heads ("Thread 0x…", "Current thread 0x…").
func stackThreads(lines []string) [][]string {
	var out [][]string
	start := 0
	for i, l := range lines {
		if i > start && (strings.HasPrefix(l, "Thread 0x") || strings.HasPrefix(l, "Current thread 0x")) {
			out = append(out, lines[start:i])
			start = i
		}
	}
	return append(out, lines[start:])
}
