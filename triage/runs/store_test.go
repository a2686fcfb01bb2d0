package runs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestStoreNumberingAndList(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	var names []string
	for _, label := range []string{"breaks", "eager", "bad/label"} {
		id, dir, err := s.NewRun(label)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.Base(dir))
		if err := WriteMeta(dir, Meta{ID: id, Name: filepath.Base(dir), State: StateExited}); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(names, []string{"0001-breaks", "0002-eager", "0003-run"}) {
		t.Errorf("names %v", names)
	}
	// a gap and a foreign directory do not confuse numbering
	if err := os.Mkdir(filepath.Join(s.Dir, "0010-trace"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(s.Dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	id, dir, err := s.NewRun("deep")
	if err != nil || id != 11 || filepath.Base(dir) != "0011-deep" {
		t.Errorf("next run %d %s %v, want 11", id, dir, err)
	}
	if err := WriteMeta(dir, Meta{ID: id, Name: "0011-deep", State: StateRunning}); err != nil {
		t.Fatal(err)
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, m := range list {
		ids = append(ids, m.ID)
	}
	if !slices.Equal(ids, []int{11, 10, 3, 2, 1}) {
		t.Errorf("List order %v, want newest first", ids)
	}
	if list[1].State != StateCorrupt || list[1].Error == "" {
		t.Errorf("run without meta listed as %+v", list[1])
	}
	if list[0].Dir != dir {
		t.Errorf("Dir %q, want %q", list[0].Dir, dir)
	}
	if got, err := s.RunDir(2); err != nil || filepath.Base(got) != "0002-eager" {
		t.Errorf("RunDir(2) = %s, %v", got, err)
	}
	if _, err := s.RunDir(99); err == nil {
		t.Error("RunDir(99) found something")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestOpenStoreDefault(t *testing.T) {
	t.Chdir(t.TempDir())
	s, err := OpenStore("")
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if s.Dir != filepath.Join(wd, ".torchtriage", "runs") {
		t.Errorf("default store at %s", s.Dir)
	}
}

func TestUpdateMeta(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	_, dir, _ := s.NewRun("breaks")
	if err := WriteMeta(dir, Meta{ID: 1, Name: "0001-breaks", State: StateExited}); err != nil {
		t.Fatal(err)
	}
	v := 12.5
	if err := UpdateMeta(dir, func(m *Meta) { m.Note = "regressed after upgrade"; m.Metric = &v }); err != nil {
		t.Fatal(err)
	}
	m, err := LoadRun(dir)
	if err != nil || m.Note != "regressed after upgrade" || m.Metric == nil || *m.Metric != 12.5 {
		t.Errorf("after update: %+v %v", m, err)
	}
	if _, err := LoadRun(t.TempDir()); err == nil {
		t.Error("LoadRun of a directory without meta.json succeeded")
	}
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte("{broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadRun(dir); err == nil || !strings.Contains(err.Error(), "not valid") {
		t.Errorf("broken meta: %v", err)
	}
}

func newStore(t *testing.T) *Store {
	t.Helper()
	s, err := OpenStore(filepath.Join(t.TempDir(), "runs"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
