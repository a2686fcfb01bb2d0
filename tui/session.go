package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/runner"
)

// session launches the runs of `run` and `demo` and holds their handles (touched only on the UI goroutine).
type session struct {
	ctx     context.Context
	cancel  context.CancelFunc
	store   *runner.Store
	feed    *feed
	handles map[int]*runner.Run
	probe   bool
}

func newSession(opt options, b *builder) *session {
	ctx, cancel := context.WithCancel(context.Background())
	return &session{ctx: ctx, cancel: cancel, store: opt.store, feed: newFeed(b), handles: map[int]*runner.Run{}, probe: opt.probe}
}

// startedMsg says a launch returned.
type startedMsg struct {
	run  *runner.Run
	spec runner.Spec
	err  error
}

// start launches spec; the feed receives its events.
func (s *session) start(spec runner.Spec) tea.Cmd {
	if s.probe {
		prev := spec.Prepare
		spec.Prepare = func(dir string) ([]string, error) {
			env, err := probe.Install(dir)
			if err != nil || prev == nil {
				return env, err
			}
			more, err := prev(dir)
			return append(env, more...), err
		}
		spec.StackTargets = probe.ReadyPIDs
	}
	return func() tea.Msg {
		if s.store == nil {
			return startedMsg{spec: spec, err: fmt.Errorf("no run store")}
		}
		r, err := runner.Start(s.ctx, s.store, spec, s.feed.sink)
		return startedMsg{run: r, spec: spec, err: err}
	}
}

// handle finds the runner handle of run id, following automatic relaunches.
func (s *session) handle(id int) *runner.Run {
	if s == nil {
		return nil
	}
	if h, ok := s.handles[id]; ok {
		return h
	}
	for _, h := range s.handles {
		for n := h.Relaunched(); n != nil; n = n.Relaunched() {
			s.handles[n.ID] = n
			if n.ID == id {
				return n
			}
		}
	}
	return nil
}

// stop cancels every run and the feed (the caller then calls runner.Shutdown).
func (s *session) stop() {
	if s == nil {
		return
	}
	s.cancel()
	s.feed.close()
}

// probesMsg carries what the probe wrote for a finished run.
type probesMsg struct {
	runID  int
	infos  []probe.Info
	parity []probe.Difference
}

// readProbes reads the probe files of a finished run.
func readProbes(id int, dir string) tea.Cmd {
	return func() tea.Msg {
		infos, _ := probe.ReadDir(dir)
		return probesMsg{runID: id, infos: infos, parity: probe.ConfigParity(infos)}
	}
}

// launchSpec is the spec of the next launch: the user's command with the preset bar's choice.
func (m *Model) launchSpec() runner.Spec {
	spec := m.opt.spec
	spec.Preset = m.pre.name
	p, _ := runner.PresetByName(m.pre.name)
	logs := m.pre.logs.Enabled()
	if !slices.Equal(logs, p.Logs) {
		spec.Logs = logs
		if logs == nil {
			spec.Logs = []string{}
		}
	} else {
		spec.Logs = nil
	}
	if p.Trace && !m.pre.trace {
		spec.Preset = runner.DefaultPreset
		spec.Logs = slices.Clone(logs)
		if spec.Logs == nil {
			spec.Logs = []string{}
		}
	}
	if !p.Trace && m.pre.trace {
		prev := spec.Prepare
		spec.Prepare = func(dir string) ([]string, error) {
			env := []string{"TORCH_TRACE=" + filepath.Join(dir, "trace")}
			if prev == nil {
				return env, nil
			}
			more, err := prev(dir)
			return append(env, more...), err
		}
	}
	if v := m.torchVersion(); v != "" && spec.TorchVersion == "" {
		spec.TorchVersion = v
	}
	return spec
}
