package tui

import (
	"regexp"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/ladder"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

type mode int

const (
	modeRun  mode = iota // torchtriage run -- CMD
	modeDemo             // torchtriage demo: the built-in recording as the repro
	modeOpen             // torchtriage open PATH…: no relaunch
)

type screen int

const (
	screenMain screen = iota
	screenDetail
	screenLog
	screenRuns
	screenDiff
	screenRanks
	screenTimeline
	screenHelp
	screenGuide
	screenInfo
)

type pane int

const (
	paneBreaks pane = iota
	paneRecompiles
	panePresets
)

// options configure a session.
type options struct {
	mode        mode
	spec        runs.Spec // the user's command and launch settings; Preset/Logs are the starting preset
	store       *runs.Store
	paths       []string // open
	color       bool
	set         *playbooks.Set                   // given (tests), or
	loadSet     func() (*playbooks.Set, []error) // read beside the first frame (run, demo, open)
	scenario    string                           // demo
	metric      *regexp.Regexp
	lowerBetter bool
	probe       bool
	noLaunch    bool // tests: do not start the first run in Init
}

// runView is what the model knows of one run of the session.
type runView struct {
	id         int
	name       string
	meta       runs.Meta
	hasMeta    bool
	snap       *snapshot
	log        session.Log
	start      time.Time
	stalled    bool
	stallSince time.Time
	dismissed  bool // the stall banner was answered with w
	note       string
	err        string
	done       bool
	probes     []report.ProcessInfo
	parity     []report.Difference
	label      string              // open: what was opened
	opened     *runs.Meta          // open: the opened run directory's meta.json (nil for logs)
	sig        string              // the preset bar signature it was launched with
	picked     bool                // the user moved the selection: it no longer follows the top-ranked finding
	out        session.OutputStats // what it printed so far (the session counts it)
	probe      probeState
	stallNote  string // what the watchdog said was compiling when the stall began
}

// Model is the bubbletea model of a session.
type Model struct {
	opt        options
	th         theme
	dark       bool
	keys       keyMap
	w, h       int
	sess       *session.Session
	pbs        func() (*playbooks.Set, []error) // the playbooks: read on the first call (Run's, beside the first frame)
	an         *session.Analyzer                // the session's analyser: its Set is filled when the playbooks are read
	runs       []*runView                       // oldest first
	cur        *runView                         // the run on screen
	screen     screen
	back       screen // where esc returns from the log view
	focus      pane
	last       pane // the list the recommended box follows while the preset bar has focus
	lists      [2]listState
	input      inputLine // the / filter and the log search
	typing     bool      // input has focus
	prompt     *prompt
	pre        presetState
	logv       logState
	det        detailState
	runsv      runsState
	storyv     storyState  // the session story of the run store (runs view)
	noteFor    *noteTarget // the run whose note the input line edits
	metricEdit bool        // the input line edits the metric (m)
	diff       *runDiff
	guide      guideState
	ranksv     scrollState
	tlv        scrollState
	helpv      scrollState
	infov      scrollState
	flash      string // one-line message until the next key
	// launchFailed is why the last launch of the session did not start ("" once one did): `torchtriage run` then
	// exits non-zero, as check does
	launchFailed string
	// flashStop is the run the flash says is being cancelled: its end makes the flash untrue (applyBatch)
	flashStop int
	now       func() time.Time
	pbText    map[string][]string // rendered playbooks by id and width, filled in Update
	text      textBody            // the text screen on show, built in Update
	ticking   bool                // a once-a-second tick is pending
	quitAt    time.Time           // when the TUI quit with runs live: it waits for them, saying so (quitText)
	loadErr   string
	loading   bool
	lad       *ladderState                                 // the backend ladder while it runs (L)
	runLadder func(ladder.Options) (*ladder.Ladder, error) // ladder.Run; tests climb a fake
}

// newModel builds a session's model; nothing starts until Init.
func newModel(opt options) *Model {
	m := &Model{opt: opt, dark: true, keys: newKeyMap(), w: 80, h: 24, now: time.Now,
		pbText: map[string][]string{}, runLadder: ladder.Run}
	m.th = newTheme(opt.color, true)
	m.input = inputLine{prompt: "/", limit: 200}
	m.logv = logState{rank: -1, cur: -1} // every rank, nothing marked
	m.pre = newPresetState(opt.spec.Preset, opt.spec.Logs)
	m.an = &session.Analyzer{} // the rows built off the UI goroutine, from the playbooks m.pbs reads
	m.an.Decorate = func(a *triage.Analysis) any { l, r := rows(a, m.an.Set); return [2][]*row{l, r} }
	m.pbs = sync.OnceValues(func() (set *playbooks.Set, errs []error) { // off the UI goroutine (given: at once)
		if set = opt.set; opt.loadSet != nil {
			set, errs = opt.loadSet()
		}
		m.an.Set = set
		return set, errs
	})
	if opt.loadSet == nil {
		m.pbs()
	}
	if opt.mode != modeOpen {
		m.sess = session.New(session.Options{Store: opt.store, Probe: opt.probe, Analyzer: m.an})
	}
	m.layout()
	return m
}

// Init starts the first run (or the loading of the opened logs) and the clock.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	switch {
	case m.opt.mode == modeOpen:
		m.loading = true
		cmds = append(cmds, m.loadCmd())
	case !m.opt.noLaunch:
		cmds = append(cmds, m.start(m.launchSpec()), m.listen(), m.tick())
	default:
		cmds = append(cmds, m.listen())
	}
	return tea.Batch(cmds...)
}

type tickMsg time.Time

// tick refreshes the elapsed time and stall seconds once a second while a run is going (one tick at a time).
func (m *Model) tick() tea.Cmd {
	if m.ticking {
		return nil
	}
	m.ticking = true
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// run returns the view of run id, creating it when it is new.
func (m *Model) run(id int) *runView {
	for _, r := range m.runs {
		if r.id == id {
			return r
		}
	}
	r := &runView{id: id, start: m.now()}
	m.runs = append(m.runs, r)
	return r
}

// live reports whether any run of the session is still going.
func (m *Model) live() bool {
	for _, r := range m.runs {
		if !r.done && m.opt.mode != modeOpen {
			return true
		}
	}
	return false
}
