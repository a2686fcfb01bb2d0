package runner

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
)

var shellSafeRE = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellQuote quotes s for a POSIX shell.
func ShellQuote(s string) string {
	if shellSafeRE.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func ShellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = ShellQuote(a)
	}
	return strings.Join(q, " ")
}

// versionsText lists what is known of the versions involved in the run.
func versionsText(m Meta) string {
	tool := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		tool = bi.Main.Version
	}
	torch := m.TorchVersion
	if torch == "" {
		torch = "unknown (not recorded; see probe/ if the probe ran)"
	}
	kernel, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return fmt.Sprintf("torch: %s\ntorchtriage: %s\ngo: %s\nos: %s/%s\nkernel: %s\n",
		torch, tool, runtime.Version(), runtime.GOOS, runtime.GOARCH, strings.TrimSpace(string(kernel)))
}

// readmeText explains the pack and how to rerun the command.
func readmeText(m Meta, files []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# torchtriage repro pack: %s\n\n", m.Name)
	fmt.Fprintf(&b, "Preset `%s`, started %s in `%s`; %s", m.Preset, m.Start.Format("2006-01-02T15:04:05Z07:00"), m.Cwd, exitSummary(m))
	if m.DurationS > 0 {
		fmt.Fprintf(&b, " after %.1fs", m.DurationS)
	}
	b.WriteString(".\n\n## Rerun\n\n```sh\ncd " + ShellQuote(m.Cwd) + "\n")
	keys := make([]string, 0, len(m.Env))
	for k := range m.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var env []string
	for _, k := range keys {
		env = append(env, ShellQuote(k+"="+m.Env[k]))
	}
	if len(env) > 0 {
		b.WriteString("env " + strings.Join(env, " ") + " \\\n  ")
	}
	b.WriteString(ShellJoin(m.Argv) + "\n```\n\n")
	fmt.Fprintf(&b, "Values shown as `%s` were secrets and are not in this pack: set them yourself.\n", Redacted)
	if m.Env["TORCH_TRACE"] != "" {
		b.WriteString("TORCH_TRACE points into the original run directory; point it anywhere you like.\n")
	}
	b.WriteString("\n## Contents\n\n")
	for _, f := range files {
		b.WriteString("- `" + f + "`\n")
	}
	b.WriteString("- `README.md`\n")
	return b.String()
}
