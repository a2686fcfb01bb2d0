package triage

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/torchtriage/torchtriage/triage/runner"
)

const logUsage = `usage: torchtriage log [--store DIR] [--format text|markdown|json]

The bringup log of the session: every run stored in DIR (default .torchtriage/runs), oldest first, with its
time, preset and TORCH_LOGS, command, exit, duration, --metric value, note and counts (distinct graph breaks,
recompiles, limit hits, CUDA-graph skips, compile errors, ranks); what changed since the previous run (command,
env, preset, torch); and what it fixed or broke against the previous comparable run (the same command, else the
same script with other arguments): graph breaks, recompile classes, limit hits, skips and errors gone or new
with their playbooks, rank agreement regained or lost. Kinds a run's TORCH_LOGS did not log are not compared.
markdown is ready to paste into a bringup doc or an upstream issue (with the environment from the probe).
Exit status: 0, 2 usage error or no run store.
`

const noteUsage = `usage: torchtriage note [--store DIR] [--clear] RUN TEXT...

Attaches a one-line note to a run ("switched to funcol"); torchtriage log shows it. RUN is a run number of the
store (default .torchtriage/runs) or a run directory; the words of TEXT are joined by spaces (quote it or not).
A note replaces the previous one; --clear removes it. A run still going cannot take a note yet.
Exit status: 0, 2 usage error or unknown run.
`

// maxNoteRunes bounds a note: it is one line of a log.
const maxNoteRunes = 300

// CmdLog implements `torchtriage log`.
func CmdLog(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	c := newCLI("log", logUsage, stderr)
	fs, fail := c.fs, c.fail
	store := fs.String("store", runner.DefaultStoreDir, "")
	format := fs.String("format", "text", "")
	rest, code, ok := c.parse(args)
	if !ok {
		return code
	}
	switch {
	case *format != "text" && *format != "markdown" && *format != "md" && *format != "json":
		return fail("unknown --format %q (text, markdown or json)", *format)
	case len(rest) > 0:
		return fail("unexpected argument %q (the store is given with --store DIR)", rest[0])
	}
	s, err := BuildStoryWith(*store, loadPlaybooks("log", stderr))
	if err != nil {
		return fail("%v", err)
	}
	for _, w := range s.Warnings {
		fmt.Fprintf(stderr, "torchtriage log: warning: %s\n", w)
	}
	switch *format {
	case "json":
		if err := WriteStoryJSON(stdout, s); err != nil {
			return fail("%v", err)
		}
	case "markdown", "md":
		WriteStoryMarkdown(stdout, s)
	default:
		WriteStoryText(stdout, s)
	}
	return 0
}

// CmdNote implements `torchtriage note`.
func CmdNote(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	c := newCLI("note", noteUsage, stderr)
	fs, fail := c.fs, c.fail
	store := fs.String("store", runner.DefaultStoreDir, "")
	clearNote := fs.Bool("clear", false, "")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	rest := fs.Args()
	switch {
	case len(rest) == 0:
		return fail("no run given (a run number or a run directory; see --help)")
	case *clearNote && len(rest) > 1:
		return fail("--clear takes no text")
	case !*clearNote && len(rest) == 1:
		return fail("no note text given (use --clear to remove a note)")
	}
	dir, err := resolveRun(rest[0], *store)
	if err != nil {
		return fail("%v", err)
	}
	note, err := SetRunNote(dir, strings.Join(rest[1:], " "))
	if err != nil {
		return fail("%v", err)
	}
	if note == "" {
		fmt.Fprintf(stdout, "%s: note removed\n", dir)
	} else {
		fmt.Fprintf(stdout, "%s: note %q\n", dir, note)
	}
	return 0
}

// SetRunNote stores a one-line note in a finished run's meta.json (runner.UpdateMeta) and returns it as stored:
// whitespace and line breaks collapsed to single spaces. An empty note removes the note. A run still going is
// refused (the runner rewrites its meta.json when it ends), as is a note longer than 300 characters.
func SetRunNote(runDir, text string) (string, error) {
	note := strings.Join(strings.Fields(text), " ")
	if n := utf8.RuneCountInString(note); n > maxNoteRunes {
		return "", fmt.Errorf("note too long (%d characters, at most %d): it is one line of the log", n, maxNoteRunes)
	}
	m, err := runner.LoadRun(runDir)
	if err != nil {
		return "", err
	}
	if !m.State.Done() {
		return "", errors.New("run " + m.Name + " is still " + string(m.State) + ": add the note when it has finished")
	}
	if err := runner.UpdateMeta(runDir, func(m *runner.Meta) { m.Note = note }); err != nil {
		return "", err
	}
	return note, nil
}
