package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/story"
)

// noteLimit is the longest note the input takes (story.SetNote refuses longer ones).
const noteLimit = 300

// noteTarget is the run whose note the input line is editing.
type noteTarget struct {
	id  int
	dir string
}

// noteSavedMsg says whether a note reached the run's meta.json.
type noteSavedMsg struct {
	runID int
	note  string // as stored (whitespace collapsed)
	err   error
}

// startNote opens the input line on a run's note (N in the runs view).
func (m *Model) startNote(r runRow) {
	switch {
	case m.storeDir() == "":
		m.flash = "notes are stored with a run's meta.json: these logs are not in a run store"
		return
	case r.live():
		m.flash = fmt.Sprintf("run %d is still running: add the note when it has finished", r.id)
		return
	case r.dir() == "":
		m.flash = fmt.Sprintf("run %d has no run directory yet: try again when the session log is built", r.id)
		return
	}
	m.noteFor = &noteTarget{id: r.id, dir: r.dir()}
	m.input = inputLine{prompt: fmt.Sprintf("note for run %d: ", r.id), limit: noteLimit}
	m.input.set(r.note())
	m.typing = true
}

// saveNote writes the note through story.SetNote off the UI goroutine.
func (m *Model) saveNote() tea.Cmd {
	t, text := m.noteFor, m.input.value
	m.noteFor = nil
	if t == nil {
		return nil
	}
	return func() tea.Msg {
		note, err := story.SetNote(t.dir, text)
		return noteSavedMsg{runID: t.id, note: note, err: err}
	}
}

// noteSaved reports the outcome in the status line and rebuilds the story, which shows the stored note.
func (m *Model) noteSaved(msg noteSavedMsg) tea.Cmd {
	if msg.err != nil {
		m.flash = fmt.Sprintf("note not saved on run %d: %v", msg.runID, msg.err)
		return nil
	}
	if r := m.runByID(msg.runID); r != nil {
		r.meta.Note = msg.note
	}
	m.flash = fmt.Sprintf("note saved on run %d", msg.runID)
	if msg.note == "" {
		m.flash = fmt.Sprintf("note removed from run %d", msg.runID)
	}
	return m.rebuildStory()
}
