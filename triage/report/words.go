package report

import (
	"strconv"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/playbooks"
)

// The words of counts and of the processes they came from, one source for text, Markdown, the gate and the TUI.

// itemRanks names the ranks of one item of the report: rankText, but in a torchrun job an item without a rank
// came from the launcher or from lines without a rank prefix, not from a single process.
func (ev ReportEvidence) ItemRanks(ranks []int) string {
	if len(ranks) == 0 && (ev.Torchrun || ev.Processes > 1) { // several processes, none named: not "single"
		return "no rank prefix"
	}
	return RankText(ranks)
}

// ProcessesText names the processes the inputs show: their ranks ("ranks 0,1"), "torchrun job, no rank prefix"
// (torchrun's launcher logged, no line carries a rank), "2 processes, no rank prefix" (torch's log lines name
// two pids), "no torch process seen" (no torch output at all), or "single process".
func (ev ReportEvidence) ProcessesText() string {
	switch {
	case len(ev.Ranks) > 0:
	case ev.Torchrun:
		return "torchrun job, no rank prefix"
	case ev.Processes >= logparse.MaxPIDs: // counted up to there
		return "at least " + strconv.Itoa(ev.Processes) + " processes, no rank prefix"
	case ev.Processes > 1:
		return strconv.Itoa(ev.Processes) + " processes, no rank prefix"
	case !ev.TorchSeen:
		return "no torch process seen"
	}
	return RankText(ev.Ranks)
}

// Logging is what is known of the logging of a kind that prints only while its TORCH_LOGS name is on.
type Logging uint8

const (
	LoggingOn       Logging = iota // its name was on, or records of it printed: its count stands
	LoggingOff                     // the run's TORCH_LOGS is known and left its name out
	LoggingUnknown                 // logs alone with no record of it and no line tagged with its name: it may have been on with nothing to print
	LoggingSilenced                // its name was on, but a process counted graph breaks its log does not show (ReportEvidence.LogSilenced)
)

// Words say why a count of a kind not shown to be logged is no count: "not logged" (off), "unknown" (logs alone).
func (l Logging) Words() string {
	switch l {
	case LoggingOff:
		return "not logged"
	case LoggingUnknown:
		return "unknown"
	case LoggingSilenced:
		return "not in the log"
	}
	return ""
}

// Cause is what Absent's words rest on, in parentheses after them: " (TORCH_LOGS)", or for a silenced log " (the
// probe counted graph breaks the log does not show: torch's logging silenced, or stderr not captured)".
func (l Logging) Cause() string {
	if l == LoggingSilenced {
		return " (the probe counted graph breaks the log does not show: torch's logging silenced, or stderr not captured)"
	}
	return " (TORCH_LOGS)"
}

// Absent says events of a kind (what, plural) that did not print could not have: "recompiles were not logged"
// where the run's TORCH_LOGS is known, "no sign recompiles were logged" for logs alone, where nothing says which
// names were on.
func (l Logging) Absent(what string) string {
	switch l {
	case LoggingOff:
		return what + " were not logged"
	case LoggingSilenced:
		return what + " did not reach the log"
	}
	return "no sign " + what + " were logged"
}

// LoggingOf is LoggingOn for logged; else LoggingSilenced where the probe showed the log lacks what was logged,
// LoggingOff where the run's TORCH_LOGS is known, LoggingUnknown for logs alone.
func (ev ReportEvidence) LoggingOf(logged bool) Logging {
	switch {
	case logged:
		return LoggingOn
	case ev.LogSilenced != "":
		return LoggingSilenced
	case ev.LogsFrom == "run":
		return LoggingOff
	}
	return LoggingUnknown
}

// RunLogging is LoggingOn or LoggingOff: a run's TORCH_LOGS is known (the bringup log's runs).
func RunLogging(logged bool) Logging {
	if logged {
		return LoggingOn
	}
	return LoggingOff
}

// Tally words a count of events that print only while their TORCH_LOGS name is on: "3 breaks"; "breaks not
// logged" when none printed with the name off (a 0 would claim there were none), "breaks unknown" where nothing
// says whether it was on; "at least 1 break" when some printed with it off, which is a floor (a Tensor.item()
// warning prints without graph_breaks, other breaks do not).
func Tally(n int, lg Logging, noun string) string {
	switch {
	case lg == LoggingOn:
		return Plural(n, noun)
	case n == 0:
		return noun + "s " + lg.Words()
	}
	return "at least " + Plural(n, noun)
}

// Floor marks a count of a run that did not complete (stopped, crashed): it counted only what the run reached,
// so "0 breaks" is "≥0 breaks"; words that are no count ("breaks not logged", "at least 1 break") stay as they are.
func Floor(count string) string {
	if count != "" && count[0] >= '0' && count[0] <= '9' {
		return "≥" + count
	}
	return count
}

// Plural is "1 record" / "3 records", "1 process" / "2 processes".
func Plural(n int, word string) string { return playbooks.Plural(n, word) }

// verbS is the verb after a count of n: " differs" for one, " differ" for more (verb given in the plural).
func VerbS(n int, verb string) string {
	if n == 1 {
		return verb + "s"
	}
	return verb
}
