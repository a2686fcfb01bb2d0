package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/runs"
)

func TestDoctorText(t *testing.T) {
	py := doctorEnv(t, "PYTHONPATH="+fakeTorchDir(t), "FAKETORCH_LOG_NAMES=graph_breaks,recompiles", "TORCH_LOGS=nope")
	var b bytes.Buffer
	failed, err := Run(context.Background(), &b, Options{Python: py, Store: t.TempDir(), Version: "1.2.3"})
	out := b.String()
	if failed != 1 || err != nil {
		t.Errorf("%d ✗, error %v", failed, err)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "torchtriage doctor · torchtriage 1.2.3 · ") || strings.Contains(out, "\x1b[") {
		t.Errorf("header or colours on a non-terminal:\n%s", out)
	}
	if last := lines[len(lines)-1]; !strings.HasSuffix(last, "✗") || !strings.Contains(last, " ⚠ · ") {
		t.Errorf("counts line %q", last)
	}
	for i, l := range lines[1 : len(lines)-1] {
		glyph := strings.Fields(l)[0]
		if !slices.Contains([]string{"✓", "⚠", "✗", "→"}, glyph) {
			t.Errorf("line %d starts with %q: %q", i+1, glyph, l)
		}
		if glyph == "⚠" || glyph == "✗" {
			if next := lines[i+2]; !strings.HasPrefix(strings.TrimSpace(next), "→ ") {
				t.Errorf("%q has no fix line below it (%q)", l, next)
			}
		}
	}
	for _, want := range []string{"✓ torch ", "✗ TORCH_LOGS ", "⚠ TORCH_LOGS names", "→ `unset TORCH_LOGS`"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func TestDoctorTerminalAndTmux(t *testing.T) {
	doctorEnv(t)
	cases := []struct {
		env      []string
		id       string
		want     status
		contains string
	}{
		{nil, "terminal", statusOK, "TERM=xterm-256color, 256 colours (stdout is not a terminal"},
		{[]string{"TERM=dumb"}, "terminal", statusWarn, "needs a real terminal"},
		{[]string{"TERM=xterm"}, "terminal", statusWarn, "16 colours"},
		{[]string{"COLORTERM=truecolor"}, "terminal", statusOK, "24-bit colour"},
		{[]string{"NO_COLOR=1"}, "terminal", statusOK, "NO_COLOR"},
		{nil, "tmux", statusOK, "not over SSH"},
		{[]string{"SSH_CONNECTION=10.0.0.1 5 10.0.0.2 22"}, "tmux", statusWarn, "a dropped connection ends torchtriage"},
		{[]string{"SSH_CONNECTION=10.0.0.1 5 10.0.0.2 22", "TMUX=/tmp/tmux-0/default,1,0"}, "tmux", statusOK, "inside tmux"},
		{[]string{"SSH_TTY=/dev/pts/1", "STY=1.pts-1"}, "tmux", statusOK, "inside screen"},
	}
	for _, c := range cases {
		for _, kv := range c.env {
			k, v, _ := strings.Cut(kv, "=")
			t.Setenv(k, v)
		}
		f := facts{Terminal: examineTerminal(io.Discard)}
		got := map[string]check{"terminal": checkTerminal(f.Terminal), "tmux": checkTmux(f)}[c.id]
		if got.Status != c.want || !strings.Contains(got.Detail, c.contains) {
			t.Errorf("%v: %s %s %q, want %s with %q", c.env, c.id, got.Status, got.Detail, c.want, c.contains)
		}
		for _, kv := range c.env {
			k, _, _ := strings.Cut(kv, "=")
			os.Unsetenv(k)
		}
		t.Setenv("TERM", "xterm-256color")
	}
}

func TestDriverVersion(t *testing.T) {
	for text, want := range map[string]string{
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\nGCC version:  gcc 12\n": "550.54.15",
		"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build  (dvs-builder@U16)\n":          "570.86.15",
		"NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  580.65.06  Release Build\n":                            "580.65.06",
	} {
		path := writeFile(t, t.TempDir(), "version", text)
		old := nvidiaDriverFile
		nvidiaDriverFile = path
		py := doctorEnv(t, "PYTHONPATH="+fakeTorchDir(t))
		_, doc, checks := runDoctor(t, Options{Python: py})
		nvidiaDriverFile = old
		if doc.Facts.Driver != want {
			t.Errorf("driver %q from %q, want %s", doc.Facts.Driver, text, want)
		}
		wantCheck(t, checks, "gpu", statusWarn, "NVIDIA driver "+want, "CUDA_VISIBLE_DEVICES")
	}
}

// The facts doctor.py wrote on an H100 box with torch 2.11.0+cu130 in a venv (the device machine lent to this
// project, 2026-11-23), checked as doctor checks them.
func TestDoctorChecksOnH100Facts(t *testing.T) {
	data, err := os.ReadFile("testdata/doctor-facts-h100-torch2.11.json")
	if err != nil {
		t.Fatal(err)
	}
	var p probe.Facts
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	f := facts{Python: p.Python, Probe: &p, LogNames: p.LogNames, LogNamesFrom: "torch", Driver: "580.159.04",
		Torchrun: "/opt/torch/.venv/bin/torchrun", TorchrunPython: "/opt/torch/.venv/bin/python3"}
	checks := map[string]check{}
	for _, c := range checksOf(f) {
		checks[c.ID] = c
	}
	wantCheck(t, checks, "python", statusOK, "/opt/torch/.venv/bin/python3 3.12.3 (venv /opt/torch/.venv)")
	wantCheck(t, checks, "torch", statusOK, "2.11.0+cu130 (CUDA 13.0) at /opt/torch/.venv/lib/python3.12/site-packages/torch")
	wantCheck(t, checks, "gpu", statusOK, "NVIDIA H100 80GB HBM3 (capability 9.0) ×1, NVIDIA driver 580.159.04")
	wantCheck(t, checks, "torch_logs_names", statusOK, "torch 2.11.0+cu130 accepts 68 names (asked torch); every preset's")
	wantCheck(t, checks, "torchrun", statusOK, "/opt/torch/.venv/bin/torchrun")
}

// TestMain lets the test binary be doctor itself (TT_DOCTOR_SELF=1: `torchtriage doctor --format json`, its exit
// status included), as TestDoctorRealtorch runs it inside a real PyTorch root.
func TestMain(m *testing.M) {
	if os.Getenv("TT_DOCTOR_SELF") == "1" {
		failed, err := Run(context.Background(), os.Stdout, Options{Format: "json"})
		switch {
		case err != nil:
			os.Exit(2)
		case failed > 0:
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestDoctorRealtorch runs doctor inside a real PyTorch root (../shared/realtorch): it must report that torch,
// and the names torch's registry gives must be exactly the "Valid settings:" list the runner's table copied.
func TestDoctorRealtorch(t *testing.T) {
	root := os.Getenv("TORCHTRIAGE_REALTORCH")
	if root == "" {
		t.Skip("TORCHTRIAGE_REALTORCH not set (a root made by ../shared/realtorch/setup.sh)")
	}
	runSh := os.Getenv("TORCHTRIAGE_REALTORCH_RUN")
	if runSh == "" {
		runSh, _ = filepath.Abs("../../shared/realtorch/run.sh")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir() // run.sh bind-mounts the working directory into the root: the test binary goes there
	t.Cleanup(func() {  // before TempDir's removal: undo run.sh's bind mount
		mounted := filepath.Join(root, work)
		_ = exec.Command("umount", mounted).Run()
		_ = os.Remove(mounted)
	})
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, work, "doctor.test", string(data))
	if err := os.Chmod(filepath.Join(work, "doctor.test"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(runSh, "./doctor.test")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "REALTORCH="+root, "TT_DOCTOR_SELF=1", "TORCH_LOGS=graph_breaks,no_such_log",
		"TORCHINDUCTOR_CACHE_DIR=", "PYTHONPATH=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run() // exit 1: the TORCH_LOGS line is ✗
	var doc document
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s\n%s", err, out.String(), errb.String())
	}
	p := doc.Facts.Probe
	if p == nil || p.Torch == nil || !strings.HasPrefix(p.Torch.Version, "2.") || strings.Contains(p.Torch.File, "faketorch") {
		t.Fatalf("want the real torch: %+v", doc.Facts)
	}
	table, ok := runs.LogNamesFor(p.Torch.Version)
	slices.Sort(table)
	if doc.Facts.LogNamesFrom != "torch" || (ok && !slices.Equal(doc.Facts.LogNames, table)) {
		t.Errorf("torch %s names (%s) %v\ndiffer from the table's %v", p.Torch.Version, doc.Facts.LogNamesFrom, doc.Facts.LogNames, table)
	}
	byID := map[string]check{}
	for _, c := range doc.Checks {
		byID[c.ID] = c
	}
	wantCheck(t, byID, "torch", statusOK, p.Torch.Version)
	wantCheck(t, byID, "torch_logs_names", statusOK, "(asked torch)")
	wantCheck(t, byID, "torch_logs_env", statusFail, "rejects no_such_log,")
	t.Logf("torch %s: %d names; %s", p.Torch.Version, len(doc.Facts.LogNames), byID["gpu"].Detail)
}
