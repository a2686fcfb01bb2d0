package runs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pathWith makes a PATH holding only a fake torchrun (or nothing) plus the
// system directories for sh.
func pathWith(t *testing.T, torchrun bool) string {
	dir := t.TempDir()
	if torchrun {
		if err := os.WriteFile(filepath.Join(dir, "torchrun"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCommandArgv(t *testing.T) {
	withTR, withoutTR := pathWith(t, true), pathWith(t, false)
	cases := []struct {
		name string
		path string
		spec Spec
		want string
	}{
		{"plain", withoutTR, Spec{Argv: []string{"python3", "r.py", "--n", "2"}}, "python3 r.py --n 2"},
		{"shell", withoutTR, Spec{Argv: []string{"python3 r.py", "|", "tee x"}, Shell: true}, "sh -c|python3 r.py | tee x"},
		{"nproc torchrun", withTR, Spec{Argv: []string{"python3", "r.py", "--n", "2"}, Nproc: 2, MasterPort: 29611},
			"torchrun --nproc-per-node 2 --tee 3 --master-port 29611 r.py --n 2"},
		{"nproc no torchrun", withoutTR, Spec{Argv: []string{"python3", "r.py"}, Nproc: 2},
			"python3 -m torch.distributed.run --nproc-per-node 2 --tee 3 r.py"},
		{"nproc interpreter path", withTR, Spec{Argv: []string{"/venv/bin/python", "-m", "pkg.train"}, Nproc: 4},
			"/venv/bin/python -m torch.distributed.run --nproc-per-node 4 --tee 3 -m pkg.train"},
		{"nproc python flags", withTR, Spec{Argv: []string{"python3", "-X", "dev", "r.py"}, Nproc: 2},
			"torchrun --nproc-per-node 2 --tee 3 --no-python python3 -X dev r.py"},
		{"nproc script", withTR, Spec{Argv: []string{"r.py", "a"}, Nproc: 2}, "torchrun --nproc-per-node 2 --tee 3 r.py a"},
		{"nproc shell", withTR, Spec{Argv: []string{"./run.sh", "x"}, Shell: true, Nproc: 2},
			"torchrun --nproc-per-node 2 --tee 3 --no-python sh -c|./run.sh x"},
		{"srun", withTR, Spec{Argv: []string{"python3", "r.py"}, Launcher: "srun", Nproc: 8}, "srun --label -n 8 python3 r.py"},
		{"explicit torchrun", withTR, Spec{Argv: []string{"python3", "r.py"}, Launcher: "torchrun"},
			"torchrun --nproc-per-node 1 --tee 3 r.py"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PATH", c.path+":/usr/bin:/bin")
			argv, _, err := Command(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(argv, " ")
			if c.spec.Shell { // the shell script is one argument
				got = strings.Join(argv[:len(argv)-1], " ") + "|" + argv[len(argv)-1]
			}
			if got != c.want {
				t.Errorf("argv %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestCommandEnv(t *testing.T) {
	_, env, err := Command(Spec{Argv: []string{"x"}, Preset: "trace", RunDir: "/runs/0003-trace",
		Env: map[string]string{"B": "2", "A": "1", "PYTHONUNBUFFERED": "0"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"PYTHONUNBUFFERED=0", "TORCH_LOGS=graph_breaks,recompiles", "TORCH_TRACE=/runs/0003-trace/trace", "A=1", "B=2"}
	if !slices.Equal(env, want) {
		t.Errorf("env %q\nwant %q", env, want)
	}
	_, env, _ = Command(Spec{Argv: []string{"x"}, Preset: "eager"})
	if !slices.Equal(env, []string{"PYTHONUNBUFFERED=1", "TORCHDYNAMO_DISABLE=1"}) {
		t.Errorf("eager env %q", env)
	}
	_, env, _ = Command(Spec{Argv: []string{"x"}, Logs: []string{"guards", "flex_gemm"}, TorchVersion: "2.6"})
	if envValue(env, "TORCH_LOGS") != "guards,recompiles" {
		t.Errorf("custom logs env %q", env)
	}
	for _, bad := range []Spec{{}, {Argv: []string{""}}, {Argv: []string{"x"}, Preset: "nope"},
		{Argv: []string{"x"}, Launcher: "mpirun"}, {Argv: []string{"x"}, Nproc: -1}} {
		if _, _, err := Command(bad); err == nil {
			t.Errorf("Command(%+v) accepted", bad)
		}
	}
}

func TestTorchMinor(t *testing.T) {
	for v, want := range map[string]int{"2.14": 14, "2.14.1": 14, "2.6.0+cu124": 6, "v2.6": 6, "2.7.0a0+git1234": 7} {
		if got, ok := TorchMinor(v); !ok || got != want {
			t.Errorf("TorchMinor(%q) = %d, %v", v, got, ok)
		}
	}
	for _, v := range []string{"", "1.13", "torch", "3.0"} {
		if _, ok := TorchMinor(v); ok {
			t.Errorf("TorchMinor(%q) ok", v)
		}
	}
}

// A preset's own names in another order (the TUI's toggle bar lists them in its catalog's order) are the preset:
// its label, not "custom", and TORCH_LOGS in the preset's order, as `check --preset` sets it. Other names stay custom.
func TestPresetNamesInAnotherOrderAreThePreset(t *testing.T) {
	for _, p := range Presets() {
		if len(p.Logs) < 2 {
			continue
		}
		shuffled := slices.Clone(p.Logs)
		slices.Reverse(shuffled)
		s := Spec{Argv: []string{"x"}, Preset: p.Name, Logs: shuffled}
		_, label, err := s.resolvePreset()
		_, env, _ := Command(s)
		_, want, _ := Command(Spec{Argv: []string{"x"}, Preset: p.Name})
		if err != nil || label != p.Name || envValue(env, "TORCH_LOGS") != envValue(want, "TORCH_LOGS") {
			t.Errorf("preset %s with %v: label %q TORCH_LOGS %q, want %q %q", p.Name, shuffled, label, envValue(env, "TORCH_LOGS"),
				p.Name, envValue(want, "TORCH_LOGS"))
		}
	}
	if _, label, _ := (Spec{Argv: []string{"x"}, Preset: "cudagraphs", Logs: []string{"cudagraphs"}}).resolvePreset(); label != "custom" {
		t.Errorf("fewer names: label %q", label)
	}
}

func envValue(env []string, key string) string {
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == key {
			return v
		}
	}
	return ""
}
