package session

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/torchtriage/torchtriage/triage/runner"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// Options configure a session.
type Options struct {
	Store    *runs.Store
	Probe    bool      // install the in-process probe in every run
	Analyzer *Analyzer // playbooks and decoration for the batches
}

// Session launches runs and follows them; its batches come out of Batches. Start and Handle may be called
// from any one goroutine (the caller's), the batches are built on the session's own.
type Session struct {
	ctx     context.Context
	cancel  context.CancelFunc
	store   *runs.Store
	probe   bool
	feed    *feed
	mu      sync.Mutex // handles: Start runs on a command's goroutine, Handle on the caller's
	handles map[int]*runner.Run
}

// New starts a session; nothing runs until Start.
func New(opt Options) *Session {
	ctx, cancel := context.WithCancel(context.Background())
	return &Session{ctx: ctx, cancel: cancel, store: opt.Store, probe: opt.Probe, feed: newFeed(opt.Analyzer),
		handles: map[int]*runner.Run{}}
}

// Handle is a launched run: its identity and what can be done to it.
type Handle = *runner.Run

// Start launches spec (with the probe when the session has it) and returns once the run was started or failed
// to start; a run that failed to start has a handle too (its meta says why) unless the store itself failed.
func (s *Session) Start(spec runs.Spec) (Handle, error) {
	if s.store == nil {
		return nil, errors.New("no run store")
	}
	if s.probe {
		spec = withProbe(spec)
	} else if spec.CollectiveTimeout > 0 {
		return nil, ErrCollectiveTimeoutNeedsProbe
	}
	r, err := runner.Start(s.ctx, s.store, spec, s.feed.sink)
	if r != nil {
		s.mu.Lock()
		s.handles[r.ID] = r
		s.mu.Unlock()
		if err == nil {
			s.feed.started(r.Meta()) // its TORCH_LOGS count while it runs
		}
	}
	return r, err
}

// Handle finds the handle of run id, following automatic relaunches.
func (s *Session) Handle(id int) Handle {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
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

// Next waits for the next batch; false once the session was stopped.
func (s *Session) Next() (Batch, bool) {
	select {
	case b := <-s.feed.out:
		return b, true
	case <-s.feed.stop:
		return Batch{}, false
	}
}

// Stop cancels every run and the batches (the caller then waits for the processes with Shutdown).
func (s *Session) Stop() {
	if s == nil {
		return
	}
	s.cancel()
	s.feed.close()
}

// Grace is the pause between the signals that stop a run of spec (runner.GraceOf): SIGINT, SIGTERM one grace
// later, SIGKILL two graces later, unless it ended.
func Grace(spec runs.Spec) time.Duration { return runner.GraceOf(spec) }
