package runner

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// How much of combined.log is searched for PyTorch's invalid-settings error:
// it is raised at `import torch`, so near the start (torchrun repeats it in
// its failure summary at the end).
const (
	relaunchHead = 1 << 20
	relaunchTail = 256 << 10
)

// relaunchPlan is a decided relaunch: the directory is allocated, the
// process not started yet.
type relaunchPlan struct {
	id  int
	dir string
	of  relaunchOf
}

// planRelaunch decides, for a run that exited non-zero, whether torch
// rejected one of its TORCH_LOGS names. If so it allocates the new run and
// records the link in this run's meta. Only the first run of a chain is ever
// relaunched.
func (r *Run) planRelaunch() (*relaunchPlan, runs.Spec) {
	r.mu.Lock()
	m := r.meta
	r.mu.Unlock()
	if r.of.from != "" || m.State != runs.StateExited || m.ExitCode == nil || *m.ExitCode == 0 || m.TorchLogs == "" {
		return nil, runs.Spec{}
	}
	out, err := readHeadTail(filepath.Join(r.Dir, "combined.log"), relaunchHead, relaunchTail)
	if err != nil {
		return nil, runs.Spec{}
	}
	drop := runs.RejectedLogNames(out, m.TorchLogs)
	if len(drop) == 0 {
		return nil, runs.Spec{}
	}
	id, dir, err := r.store.NewRun(r.spec.Label())
	if err != nil {
		r.sink(Event{RunID: r.ID, Kind: EventError, Time: time.Now(), Err: fmt.Errorf("relaunch without %s: %w", strings.Join(drop, ","), err)})
		return nil, runs.Spec{}
	}
	names := "name " + strings.Join(drop, ", ")
	if len(drop) > 1 {
		names = "names " + strings.Join(drop, ", ")
	}
	next := r.spec
	next.RunDir, next.MasterPort = "", 0
	of := relaunchOf{excludeLogs: append(slices.Clone(r.of.excludeLogs), drop...), from: m.Name,
		note: fmt.Sprintf("relaunch of %s without TORCH_LOGS %s: this torch rejected them", m.Name, names)}
	r.mu.Lock()
	r.meta.RelaunchedAs = filepath.Base(dir)
	r.meta.RelaunchNote = fmt.Sprintf("torch rejected TORCH_LOGS %s; relaunched without them as %s", names, filepath.Base(dir))
	r.mu.Unlock()
	return &relaunchPlan{id: id, dir: dir, of: of}, next
}

// relaunch starts the planned run, announcing it first.
func (r *Run) relaunch(p *relaunchPlan, spec runs.Spec) {
	r.mu.Lock()
	note := r.meta.RelaunchNote
	r.mu.Unlock()
	n, err := launch(r.store, spec, p.of, r.sink, p.id, p.dir)
	if err != nil {
		return // launch recorded failed_to_start and emitted EventError
	}
	m := n.Meta()
	r.sink(Event{RunID: n.ID, Kind: EventRelaunched, Time: time.Now(), Note: note, Meta: &m})
	r.mu.Lock()
	r.next = n
	r.mu.Unlock()
	go n.supervise(r.ctx)
}

// readHeadTail returns the first head bytes of a file and, when it is
// longer, its last tail bytes.
func readHeadTail(path string, head, tail int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() <= head+tail {
		return io.ReadAll(f)
	}
	buf := make([]byte, head+tail)
	if _, err := f.ReadAt(buf[:head], 0); err != nil {
		return nil, err
	}
	if _, err := f.ReadAt(buf[head:], st.Size()-tail); err != nil && err != io.EOF {
		return nil, err
	}
	return buf, nil
}
