package tui

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
)

// FirstFrameEnv, when set, makes the program quit as soon as it has drawn its first frame (bench/startup.sh
// measures process start to first frame with it). A value other than "1" names a file the first frame's time
// is appended to, in Unix nanoseconds, and the process's CPU time until then. A value starting "full:" waits for
// the first full frame instead: the opened logs loaded and shown (bench/open.sh); the rest names the file.
const FirstFrameEnv = "TORCHTRIAGE_EXIT_AFTER_FIRST_FRAME"

// firstFrame wraps the model: its first View with something on the screen quits the program (the frame is still drawn: the renderer flushes
// the last view on quit). Only for the benchmark; the model's own View stays without side effects.
type firstFrame struct {
	tea.Model
	p    *tea.Program
	file string
	full bool // wait for the opened logs to be shown
	once sync.Once
}

func (f *firstFrame) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := f.Model.Update(msg)
	f.Model = m
	return f, cmd
}

func (f *firstFrame) View() tea.View {
	v := f.Model.View()
	if strings.TrimSpace(v.Content) == "" {
		return v // before the terminal's size is known: nothing drawn yet
	}
	if m, ok := f.Model.(*Model); f.full && ok && m.loading {
		return v // the opened logs are still loading
	}
	f.once.Do(func() {
		if f.file != "" {
			var ru syscall.Rusage // user and system time (ns): what load does not inflate
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
			at := fmt.Sprintf("%d %d\n", time.Now().UnixNano(), ru.Utime.Nano()+ru.Stime.Nano())
			if w, err := os.OpenFile(f.file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
				_, _ = w.WriteString(at)
				_ = w.Close()
			}
		}
		go f.p.Quit()
	})
	return v
}

// withFirstFrameExit returns the model to run: m itself unless FirstFrameEnv is set, and a func that tells the
// wrapper its program.
func withFirstFrameExit(m tea.Model) (tea.Model, func(*tea.Program)) {
	v := os.Getenv(FirstFrameEnv)
	if v == "" {
		return m, func(*tea.Program) {}
	}
	f := &firstFrame{Model: m}
	if rest, ok := strings.CutPrefix(v, "full:"); ok {
		f.full, v = true, rest
	}
	if v != "1" {
		f.file = v
	}
	return f, func(p *tea.Program) { f.p = p }
}
