package runner

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
)

var shellSafeRE = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if shellSafeRE.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
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
	b.WriteString(".\n\n## Rerun\n\n```sh\ncd " + shellQuote(m.Cwd) + "\n")
	keys := make([]string, 0, len(m.Env))
	for k := range m.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var env []string
	for _, k := range keys {
		env = append(env, shellQuote(k+"="+m.Env[k]))
	}
	if len(env) > 0 {
		b.WriteString("env " + strings.Join(env, " ") + " \\\n  ")
	}
	b.WriteString(shellJoin(m.Argv) + "\n```\n\n")
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

// CmdBundle is `torchtriage bundle RUN_DIR|RUN_NUMBER [-o FILE]`.
func CmdBundle(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bundle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output file (default ./<run>.tar.gz)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: torchtriage bundle RUN_DIR|RUN_NUMBER [-o FILE]")
		fs.PrintDefaults()
	}
	pos, code := parseInterleaved(fs, args)
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		fs.Usage()
		return 2
	}
	dir := pos[0]
	if n, err := strconv.Atoi(dir); err == nil {
		if _, serr := os.Stat(dir); serr != nil {
			store, err := OpenStore("")
			if err == nil {
				dir, err = store.RunDir(n)
			}
			if err != nil {
				fmt.Fprintln(stderr, "torchtriage bundle:", err)
				return 1
			}
		}
	}
	target := *out
	if target == "" {
		abs, _ := filepath.Abs(dir)
		target = filepath.Base(abs) + ".tar.gz"
	}
	if err := Bundle(dir, target); err != nil {
		fmt.Fprintln(stderr, "torchtriage bundle:", err)
		return 1
	}
	fmt.Fprintln(stdout, "wrote", target)
	return 0
}

// parseInterleaved parses flags that may come after positional arguments.
// It returns the positionals and -1, or an exit code when parsing ended it.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, int) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, 0
			}
			return nil, 2
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, -1
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
