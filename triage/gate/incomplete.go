package gate

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
)

// tellIncomplete prints how the run fell short of its end, where it is (dir: its run dir, "" for logs alone), and
// its first failure, what the ranks' probes recorded of their compiles where they differ (rank agreement's
// Compiles), then, unless it failed, for a run torchtriage stopped, where each rank was (stoppedAt), then the end of
// its stderr: what follows the tool's signal there is the reaction to it, and says so.
func tellIncomplete(w io.Writer, dir, how, first string, a *triage.Analysis) {
	if dir != "" {
		fmt.Fprintf(w, "%s: the repro did not run to completion: %s; run dir %s\n", name, how, dir)
	} else {
		fmt.Fprintf(w, "%s: the run did not complete: %s\n", name, how)
	}
	if first != "" {
		fmt.Fprintf(w, "first failure: %s\n", first)
	}
	if hung := a.Hung(); hung != "" { // the analysis knows where each rank waits
		fmt.Fprintf(w, "the run hung: %s\n", hung)
	}
	if c := a.RankAgreement.Compiles; c != nil { // rank agreement's words: what each rank had compiled by then
		fmt.Fprintln(w, c.Summary)
	}
	if first != "" {
		return
	}
	if head, lines := a.StoppedAtWords(); head != "" {
		fmt.Fprintf(w, "%s%s:\n", strings.ToLower(head[:1]), head[1:]) // after the lines before it, not a heading
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if dir == "" {
		return
	}
	b, _ := os.ReadFile(filepath.Join(dir, "stderr.log"))
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > 15 {
		lines = lines[len(lines)-15:]
	}
	if len(b) > 0 {
		fmt.Fprintln(w, tailLabel(a))
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
}

// tailLabel heads the end of stderr: of a run torchtriage stopped, what is printed there is the reaction to its
// signal, torchrun's traceback included, never the program's failure.
func tailLabel(a *triage.Analysis) string {
	if a == nil || a.Run == nil || a.Run.Outcome != report.OutcomeStopped {
		return "last lines of stderr:"
	}
	if msg := a.LauncherSignal(); msg != "" {
		return "last lines of stderr (torchrun's traceback there, " + strconv.Quote(msg) + ", is torchrun's reaction to " +
			signalWords(msg) + ", not a failure of the program):"
	}
	return "last lines of stderr (printed after torchtriage's signal to stop the run):"
}

// signalWords names the signal of a SignalException message ("… got signal: 2"): "torchtriage's SIGINT".
func signalWords(msg string) string {
	switch {
	case strings.HasSuffix(msg, "signal: 2"):
		return "torchtriage's SIGINT"
	case strings.HasSuffix(msg, "signal: 15"):
		return "torchtriage's SIGTERM"
	}
	return "torchtriage's signal"
}
