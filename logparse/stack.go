package logparse

import (
	"slices"
	"strings"
)

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
			if isLauncherFile(f.File) {
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

// StackThread is one thread of a faulthandler stack dump.
type StackThread struct {
	ID      string  // the thread's id as its head prints it ("0x00007fc74412c200"); "" when the head shows none
	Current bool    // "Current thread": the thread that took the signal
	Frames  []Frame // most recent call first
}

// StackMains returns the main thread of each process of the program whose dump the lines of a KindStack record
// hold: the threads with a `<module>` frame (a thread the program started runs from threading's _bootstrap), one a
// process, in the order they were printed. Several processes that dump at once into one pipe (torchrun's ranks
// without --tee) print one after the other in one record, and torchrun's own dump (its agent's frames) is no
// process of the program: left out. interleaved reports a thread head inside a line — processes that wrote at the
// same moment, their lines mixed: no thread of the record can be trusted then, and none is returned.
func StackMains(lines []string) (mains []StackThread, interleaved bool) {
	for _, l := range lines {
		if i := strings.Index(l, "hread 0x"); i > 0 && !strings.HasPrefix(l, "Thread 0x") && !strings.HasPrefix(l, "Current thread 0x") {
			return nil, true
		}
	}
	for _, thread := range stackThreads(lines) {
		if len(thread) == 0 {
			continue
		}
		frames := parseFrames(thread) // most recent call first
		if !slices.ContainsFunc(frames, func(f Frame) bool { return f.Func == "<module>" }) ||
			slices.ContainsFunc(frames, func(f Frame) bool { return isLauncherFile(f.File) }) {
			continue
		}
		head := thread[0]
		t := StackThread{Current: strings.HasPrefix(head, "Current thread 0x"), Frames: frames}
		if i := strings.Index(head, "0x"); i >= 0 {
			end := i + 2
			for end < len(head) && strings.IndexByte("0123456789abcdefABCDEF", head[end]) >= 0 {
				end++
			}
			t.ID = head[i:end]
		}
		mains = append(mains, t)
	}
	return mains, false
}

// isLauncherFile reports torchrun's own code (its agent): frames of the launcher, not of the program.
func isLauncherFile(file string) bool {
	return strings.Contains(file, "torch/distributed/run.py") || strings.Contains(file, "torch/distributed/elastic/")
}
