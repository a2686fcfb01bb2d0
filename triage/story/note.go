package story

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// maxNoteRunes bounds a note: it is one line of a log.
const maxNoteRunes = 300

// SetNote stores a one-line note in a finished run's meta.json (runs.UpdateMeta) and returns it as stored:
// whitespace and line breaks collapsed to single spaces. An empty note removes the note. A run still going is
// refused (the runner rewrites its meta.json when it ends), as is a note longer than 300 characters.
func SetNote(runDir, text string) (string, error) {
	note := strings.Join(strings.Fields(text), " ")
	if n := utf8.RuneCountInString(note); n > maxNoteRunes {
		return "", fmt.Errorf("note too long (%d characters, at most %d): it is one line of the log", n, maxNoteRunes)
	}
	m, err := runs.LoadRun(runDir)
	if err != nil {
		return "", err
	}
	if !m.State.Done() {
		return "", errors.New("run " + m.Name + " is still " + string(m.State) + ": add the note when it has finished")
	}
	if err := runs.UpdateMeta(runDir, func(m *runs.Meta) { m.Note = note }); err != nil {
		return "", err
	}
	return note, nil
}
