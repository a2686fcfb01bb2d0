package triage

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
)

// StopPlace is where one process was when torchtriage stopped the run: the program's frame of the traceback its
// stop printed (KeyboardInterrupt, or an error raised while handling it). File "" when it printed none.
type StopPlace struct {
	Rank      int    `json:"rank"` // -1: processes without a rank prefix (Processes of them)
	Processes int    `json:"processes,omitempty"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Class     string `json:"class"` // the exception the stop raised there ("KeyboardInterrupt"), or StackDumpClass
}

// StoppedAtWords are StoppedAt's heading and lines, as report, its Markdown, the TUI and check say them: "Where
// each rank was when torchtriage stopped the run", then "rank 0: hang.py:13 (KeyboardInterrupt)" a line; none when
// StoppedAt has none.
func (a *Analysis) StoppedAtWords() (string, []string) {
	places := a.StoppedAt()
	if len(places) == 0 {
		return "", nil
	}
	who := "rank"
	if len(places) == 1 && places[0].Rank < 0 {
		who = "process"
	}
	lines := make([]string, len(places))
	for i, p := range places {
		lines[i] = p.Short()
	}
	return "Where each " + who + " was when torchtriage stopped the run", lines
}

// Short is "rank 0: hang_extra.py:13 (KeyboardInterrupt)", "process: repro.py:5 (…)", "rank 1: not known (no
// traceback with a frame of the program)".
func (p StopPlace) Short() string {
	who := "rank " + report.Itoa(p.Rank)
	if p.Rank < 0 {
		who = report.Plural(p.Processes, "process") + " without a rank prefix"
	}
	switch {
	case p.File == "":
		return who + ": not known (no traceback with a frame of the program)"
	case strings.HasPrefix(p.File, "<"): // Python's generated code (a guard's lambda): no file of the program
		return who + ": in generated code " + p.File + ":" + report.Itoa(p.Line) + " (" + p.Class + ")"
	}
	return who + ": " + filepath.Base(p.File) + ":" + report.Itoa(p.Line) + " (" + p.Class + ")"
}

// StoppedAt lists where each process was when torchtriage stopped the run, from the interrupt tracebacks of
// the program's processes (not the launcher's, see LauncherSignal), else from the stack dumps the tool asked for
// before its signal (Class StackDumpClass: a rank blocked in a collective raises nothing): one entry per rank the analysis knows once
// one rank printed one, and one per place of processes without a rank prefix; nil for a run the tool did not
// stop or where no process printed such a traceback.
func (a *Analysis) StoppedAt() []StopPlace {
	if a == nil || a.Run == nil || a.Run.Outcome != report.OutcomeStopped || a.Report == nil {
		return nil
	}
	found := map[int]StopPlace{}
	var unranked []StopPlace
	for _, e := range a.Report.Exceptions {
		if e.File == "" || !stopInterrupt(e) || stopClassName(e.Class) == "SignalException" {
			continue
		}
		if e.Rank < 0 && len(e.Ranks) == 0 {
			unranked = append(unranked, StopPlace{Rank: -1, Processes: max(e.Records, 1), File: e.File, Line: e.Line,
				Class: stopClassName(e.Class)})
			continue
		}
		ranks := e.Ranks
		if len(ranks) == 0 {
			ranks = []int{e.Rank}
		}
		for _, r := range ranks {
			if _, ok := found[r]; !ok {
				found[r] = StopPlace{Rank: r, File: e.File, Line: e.Line, Class: stopClassName(e.Class)}
			}
		}
	}
	unranked = append(unranked, a.stackPlaces(found)...)
	if len(found) == 0 {
		return unranked
	}
	ranks := slices.Clone(a.Evidence.Ranks)
	for r := range found {
		if !slices.Contains(ranks, r) {
			ranks = append(ranks, r)
		}
	}
	slices.Sort(ranks)
	out := make([]StopPlace, 0, len(ranks))
	for _, r := range ranks {
		p, ok := found[r]
		if !ok {
			p = StopPlace{Rank: r}
		}
		out = append(out, p)
	}
	return append(out, unranked...)
}

// LauncherSignal is torchrun's reaction to the signal torchtriage sent it, for a run the tool stopped: the
// message of its SignalException ("Process 6665 got signal: 2"), "" when it printed none.
func (a *Analysis) LauncherSignal() string {
	if a == nil || a.Run == nil || a.Run.Outcome != report.OutcomeStopped || a.Report == nil {
		return ""
	}
	for _, e := range a.Report.Exceptions {
		if e.Rank < 0 && stopClassName(e.Class) == "SignalException" {
			return e.Message
		}
	}
	return ""
}

// stopInterrupt says an exception is how a process went down under a stop signal.
func stopInterrupt(e report.ErrorSummary) bool {
	switch stopClassName(e.Class) {
	case "KeyboardInterrupt", "SystemExit", "SignalException":
		return true
	}
	return e.Interrupt != ""
}

func stopClassName(c string) string { return c[strings.LastIndexByte(c, '.')+1:] }
