package tui

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// A launch that failed (executable not found, torchrun missing, no torch, an exit before any torch output) has no
// findings to list: the main screen shows a failure banner instead, with the verdict and what the launcher
// printed last.

// firstFailure is the report's "First failure:" of the run on screen (the error the others followed from), ""
// when no process died of one.
func (m *Model) firstFailure() string {
	if r := m.cur; r != nil && r.snap != nil && r.snap.analysis != nil {
		return r.snap.analysis.Verdict.FirstFailure
	}
	return ""
}

// caughtLines are the report's "Caught ×1 single process RuntimeError: … (the program went on: no process died
// of it)" lines of the run on screen: the exceptions the program caught and went on after that no row shows (a
// caught compile error is a finding, a CATCH row). At most two: a second line counts the rest.
func (m *Model) caughtLines() []string {
	r := m.cur
	if r == nil || r.snap == nil || r.snap.analysis == nil {
		return nil
	}
	an := r.snap.analysis
	var out []string
	for i := range an.Report.Exceptions {
		if e := &an.Report.Exceptions[i]; e.Caught && !e.Compile {
			out = append(out, an.CaughtText(e))
		}
	}
	if len(out) > 2 {
		out = []string{out[0], fmt.Sprintf("Caught: %d more exceptions the program went on after (torchtriage report lists them)", len(out)-1)}
	}
	return out
}

// didNotStart reports whether a finished run never got as far as torch.
func didNotStart(r *runView) bool {
	if r == nil || !r.done {
		return false
	}
	if r.snap != nil && r.snap.analysis != nil {
		return r.snap.analysis.Verdict.State == triage.StateDidNotStart
	}
	return r.hasMeta && r.meta.State == runs.StateFailedToStart
}

// failureBody is the banner of a run that did not start.
func (m *Model) failureBody(w, h int) []string {
	th, r := m.th, m.cur
	summary := "did not start: " + orText(r.meta.Error, r.err)
	if r.snap != nil && r.snap.analysis != nil {
		summary = r.snap.analysis.Verdict.Summary
	}
	lines := []string{th.bad.Render(" ✗ " + strings.ReplaceAll(triage.StateDidNotStart, "_", " ")), ""} // the report's words
	for _, l := range cells.Wrap(summary, w-4) {
		lines = append(lines, " "+l)
	}
	var foot []string           // the command and the keys, below the tail: never cut
	if m.opt.mode == modeOpen { // nothing is relaunched: the run dir's command (meta.json), when it has one
		if o := r.opened; o != nil && len(orArgv(o.UserArgv, o.Argv)) > 0 {
			foot = append(foot, th.dim.Render(" command: "+shellJoin(orArgv(o.UserArgv, o.Argv))))
		}
		foot = append(foot, th.dim.Render(" i what was opened · l the whole log"))
	} else {
		argv, _ := m.userArgv()
		foot = append(foot, th.dim.Render(" command: "+shellJoin(argv)),
			th.dim.Render(" r reruns (after a fix) · i the full command · l the whole log"))
	}
	room := max(h-2-len(lines)-3-len(foot), 1) // the box's borders, the blanks and the tail's title
	tail := lastStderr(r.log, room)
	lines = append(lines, "")
	if len(tail) == 0 {
		lines = append(lines, th.dim.Render(" The launcher printed nothing."))
	} else {
		lines = append(lines, th.title.Render(" What the launcher printed last (stderr):"))
		var wrapped []string
		for _, l := range tail {
			for _, wl := range cells.Wrap(clean(l), w-6) {
				wrapped = append(wrapped, "   "+wl)
			}
		}
		lines = append(lines, wrapped[max(len(wrapped)-room, 0):]...) // its last lines, as wrapped
	}
	lines = append(append(lines, ""), foot...)
	return th.box("Did not start", lines, w, h, true)
}

// lastStderr is the last n non-empty lines of a run's stderr (of all its output when it has no stderr input).
func lastStderr(log session.Log, n int) []string {
	stderr := -1
	for i, in := range log.Inputs {
		if strings.HasSuffix(in, ":stderr") {
			stderr = i
		}
	}
	var out []string
	// from the end back, a window at a time, at most 8 windows (a run that printed nothing on stderr for that
	// long shows what it has)
	const window = 256
	for end, k := log.Len(), 0; end > 0 && len(out) < n && k < 8; end, k = end-window, k+1 {
		lines := log.Lines(end-window, end)
		for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
			l := lines[i]
			if l.Header || strings.TrimSpace(l.Text) == "" || (stderr >= 0 && int(l.Input) != stderr) {
				continue
			}
			out = append(out, l.Text)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// stopWords is "stopped by torchtriage (cancelled)" for a run the tool itself stopped, "" otherwise: such a run
// is never shown as a failure. From meta.json alone: a view reads no file.
func stopWords(me runs.Meta) string { return stoppedText(session.StoppedBy(me)) }

// stoppedText words why the tool stopped a run ("" when it did not).
func stoppedText(by string) string {
	if by == "" {
		return ""
	}
	return "stopped by torchtriage (" + by + ")"
}
