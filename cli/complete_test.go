package cli

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/torchtriage/torchtriage/triage/demo"
	"github.com/torchtriage/torchtriage/triage/runs"
)

func TestCompletionScripts(t *testing.T) {
	for shell, want := range map[string]string{
		"bash": "complete -o default -F __start_torchtriage torchtriage",
		"zsh":  "#compdef torchtriage",
		"fish": "complete -c torchtriage",
	} {
		code, out, errs := runCLI("completion", shell)
		if code != 0 || errs != "" || !strings.Contains(out, want) {
			t.Errorf("completion %s: exit %d %q; script lacks %q", shell, code, errs, want)
		}
	}
}

// candidates asks cobra's completion entry point (what the shell scripts call) for the candidates of the
// last word of args, without their descriptions.
func candidates(t *testing.T, args ...string) []string {
	t.Helper()
	code, out, errs := runCLI(append([]string{cobra.ShellCompRequestCmd}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %q: exit %d %q", args, code, errs)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, ":") { // the last line is ":DIRECTIVE"
			name, _, _ := strings.Cut(l, "\t")
			got = append(got, name)
		}
	}
	return got
}

func TestDynamicCompletion(t *testing.T) {
	store := bringupStore(t, 3)
	var presets, scenarios []string
	for _, p := range runs.Presets() {
		presets = append(presets, p.Name)
	}
	for _, s := range demo.Scenarios() {
		scenarios = append(scenarios, s.Name)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"diff", "--store", store, ""}, []string{"3", "2", "1"}},
		{[]string{"diff", "--store", store, "1", ""}, []string{"3", "2", "1"}},
		{[]string{"note", "--store", store, ""}, []string{"1", "2", "3"}},
		{[]string{"bundle", "--store", store, ""}, []string{"1", "2", "3"}},
		{[]string{"run", "--preset", ""}, presets},
		{[]string{"check", "--preset", ""}, presets},
		{[]string{"run", "--logs", "graph_breaks,re"}, []string{"graph_breaks,recompiles", "graph_breaks,recompiles_verbose"}},
		{[]string{"check", "--logs", ""}, []string{"graph_breaks", "dynamo", "guards"}},
		{[]string{"explain", ""}, []string{"gb-print", "rc-shape", "GB0059", "GB0124"}},
		{[]string{"playbooks", ""}, []string{"gb-print", "GB0059"}},
		{[]string{"demo", "--scenario", ""}, scenarios},
		{[]string{"report", "--format", ""}, []string{"text", "json", "markdown"}},
		{[]string{"check", "--format", ""}, []string{"text", "json", "github", "junit"}},
		{[]string{"log", "--format", ""}, []string{"text", "markdown", "json"}},
		{[]string{"run", "--launcher", ""}, []string{"torchrun", "srun"}},
	} {
		got := candidates(t, c.args...)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("completing %q: no %q in %q", c.args, w, got)
			}
		}
	}
	// the newest run first
	if got := candidates(t, "diff", "--store", store, ""); len(got) < 3 || got[0] != "3" {
		t.Errorf("runs not newest first: %q", got)
	}
}

// Every flag that takes a preset, TORCH_LOGS names, a scenario, a format or a launcher completes its values,
// on every command that has it.
func TestEveryValueFlagCompletes(t *testing.T) {
	valued := map[string]bool{"preset": true, "logs": true, "scenario": true, "format": true, "launcher": true}
	seen := map[string]int{}
	for _, path := range commands(t) {
		cmd := lookup(t, path)
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !valued[f.Name] {
				return
			}
			seen[f.Name]++
			if _, ok := cmd.GetFlagCompletionFunc(f.Name); !ok {
				t.Errorf("%v --%s has no completion", path, f.Name)
			}
		})
	}
	for name := range valued {
		if seen[name] == 0 {
			t.Errorf("no command has --%s", name)
		}
	}
}

// A shell cobra has no script for is a usage error (exit 2 and one line), not completion's help with exit 0.
func TestCompletionOfAnUnknownShellIsAUsageError(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Run([]string{"completion", "tcsh"}, nil, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), `no completion script for "tcsh"`) {
		t.Errorf("code %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := Run([]string{"completion", "bash"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "bash completion") {
		t.Errorf("bash: code %d", code)
	}
}
