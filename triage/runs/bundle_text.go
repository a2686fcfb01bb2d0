package runs

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/triage/probe"
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

// ProcessVersions is what the probe recorded of one process's software and hardware.
type ProcessVersions struct {
	Rank                                         int
	Torch, Python, CUDA, GPU, Capability, Driver string
}

// text is "torch 2.14.1+cu128 · CUDA 12.8 · GPU NVIDIA H100 80GB HBM3 (sm 9.0) · driver 570.124.06 · Python 3.12.3".
func (v ProcessVersions) text() string {
	parts := []string{"torch " + orNone(v.Torch, "(not imported)")}
	parts = append(parts, "CUDA "+orNone(v.CUDA, "none (CPU build)"))
	parts = append(parts, HardwareParts(v.GPU, v.Capability, v.Driver)...)
	if v.Python != "" {
		parts = append(parts, "Python "+v.Python)
	}
	return strings.Join(parts, " · ")
}

// HardwareParts words what is known of a GPU and its driver: "GPU NVIDIA H100 80GB HBM3 (sm 9.0)", "driver 570.124.06".
func HardwareParts(gpu, capability, driver string) []string {
	var parts []string
	if gpu != "" {
		g := "GPU " + gpu
		if capability != "" {
			g += " (sm " + capability + ")"
		}
		parts = append(parts, g)
	}
	if driver != "" {
		parts = append(parts, "driver "+driver)
	}
	return parts
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// versionLines groups the processes by what they ran: "ranks 0-1: torch … · CUDA …"; nil without probe files.
func versionLines(vs []ProcessVersions) []string {
	var order []string
	ranks := map[string][]int{}
	for _, v := range vs {
		t := v.text()
		if _, ok := ranks[t]; !ok {
			order = append(order, t)
		}
		ranks[t] = append(ranks[t], v.Rank)
	}
	out := make([]string, len(order))
	for i, t := range order {
		out[i] = processesWord(ranks[t]) + ": " + t
	}
	return out
}

// processesWord names processes by rank ("rank 0", "ranks 0-3,5"); those without rank (-1) by their number ("the
// process", "2 processes"), after the ranks when there are both.
func processesWord(rs []int) string {
	var ranked []int
	for _, r := range rs {
		if r >= 0 {
			ranked = append(ranked, r)
		}
	}
	var parts []string
	if len(ranked) > 0 {
		parts = append(parts, rankRanges(ranked))
	}
	switch n := len(rs) - len(ranked); {
	case n == 1 && len(ranked) == 0:
		parts = append(parts, "the process")
	case n == 1:
		parts = append(parts, "a process without rank")
	case n > 1 && len(ranked) == 0:
		parts = append(parts, fmt.Sprintf("%d processes", n))
	case n > 1:
		parts = append(parts, fmt.Sprintf("%d processes without rank", n))
	}
	return strings.Join(parts, " and ")
}

// rankRanges words ranks as "rank 0" or "ranks 0-3,5".
func rankRanges(rs []int) string {
	rs = slices.Compact(slices.Sorted(slices.Values(rs)))
	var parts []string
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", rs[i], rs[j]))
		} else {
			parts = append(parts, fmt.Sprint(rs[i]))
		}
		i = j + 1
	}
	if len(rs) == 1 {
		return "rank " + parts[0]
	}
	return "ranks " + strings.Join(parts, ",")
}

// versionsText lists what is known of the versions involved in the run.
func versionsText(m Meta, vs []ProcessVersions) string {
	tool := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		tool = bi.Main.Version
	}
	torch := m.TorchVersion
	if torch == "" {
		torch = "not recorded"
	}
	if len(vs) > 0 {
		torch = vs[0].Torch
	}
	kernel, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	var b strings.Builder
	fmt.Fprintf(&b, "torch: %s\ntorchtriage: %s\ngo: %s\nos: %s/%s\nkernel: %s\n",
		torch, tool, runtime.Version(), runtime.GOOS, runtime.GOARCH, strings.TrimSpace(string(kernel)))
	for _, l := range versionLines(vs) {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// rerunEnv is the run's environment additions without the probe's plumbing: TORCHTRIAGE_* and the probe
// directory at the head of PYTHONPATH (the rest of PYTHONPATH, the user's, stays).
func rerunEnv(m Meta) map[string]string {
	out := map[string]string{}
	for k, v := range m.Env {
		if strings.HasPrefix(k, "TORCHTRIAGE_") {
			continue
		}
		if k == "PYTHONPATH" {
			var keep []string
			for _, p := range filepath.SplitList(v) {
				if p != filepath.Join(m.Dir, "probe") && !strings.HasSuffix(p, "/"+m.Name+"/probe") {
					keep = append(keep, p)
				}
			}
			if len(keep) == 0 {
				continue
			}
			v = strings.Join(keep, string(os.PathListSeparator))
		}
		out[k] = v
	}
	return out
}

// readmeText is the pack's README for an upstream issue: versions, how to rerun, the findings, the contents and
// what was scrubbed (sc nil: nothing, --no-scrub).
func readmeText(m Meta, files []string, todays string, opt BundleOptions, sc *Scrub) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# torchtriage repro pack: %s\n\n", m.Name)
	fmt.Fprintf(&b, "Preset `%s`, started %s in `%s`; %s", m.Preset, m.Start.Format("2006-01-02T15:04:05Z07:00"), m.Cwd, exitSummary(m))
	if m.DurationS > 0 {
		fmt.Fprintf(&b, " after %.1fs", m.DurationS)
	}
	b.WriteString(".\n\n## Versions\n\n")
	if lines := versionLines(opt.Versions); len(lines) > 0 {
		for _, l := range lines {
			b.WriteString("- " + l + "\n")
		}
	} else if m.TorchVersion != "" {
		b.WriteString("- torch " + m.TorchVersion + " (as given to torchtriage; the run was not probed: no CUDA, GPU or driver versions)\n")
	} else if m.Env[probe.DirEnv] != "" { // probed: no process of it imported torch (or none lived to say so)
		b.WriteString("- not recorded: the probe saw no process import torch, so it recorded no torch, CUDA, GPU or driver versions\n")
	} else {
		b.WriteString("- not recorded: the run was not probed (run without --no-probe to record torch, CUDA, GPU and driver versions)\n")
	}
	b.WriteString("\n## Rerun\n\n```sh\ncd " + ShellQuote(m.Cwd) + "\n")
	env := rerunEnv(m)
	var assigns []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		assigns = append(assigns, ShellQuote(k+"="+env[k]))
	}
	if len(assigns) > 0 {
		b.WriteString("env " + strings.Join(assigns, " ") + " \\\n  ")
	}
	rerun := ShellJoin(m.Argv)
	b.WriteString(rerun + "\n```\n\n")
	if strings.Contains(rerun, Redacted) || strings.Contains(strings.Join(assigns, " "), Redacted) { // only where one is
		fmt.Fprintf(&b, "Values shown as `%s` were secrets and are not in this pack: set them yourself.\n", Redacted)
	}
	if m.Env["TORCH_TRACE"] != "" {
		b.WriteString("TORCH_TRACE points into the original run directory; point it anywhere you like.\n")
	}
	b.WriteString(codeText(m, todays))
	b.WriteString(minifiedText(m))
	if opt.Findings != "" {
		b.WriteString("\n" + strings.TrimRight(opt.Findings, "\n") + "\n")
	}
	b.WriteString("\n## Scrubbed\n\n")
	switch {
	case sc == nil:
		b.WriteString("**Not scrubbed** (`--no-scrub`): the files are as the run wrote them. Check them for secrets before sharing.\n")
	case len(sc.Counts()) == 0:
		b.WriteString("Every file was scrubbed; nothing that looks like a secret was found.\n")
	default:
		b.WriteString("Every file was scrubbed; these were replaced by `" + Redacted + "`:\n\n| what | count |\n|---|---|\n")
		for _, c := range sc.Counts() {
			fmt.Fprintf(&b, "| %s | %d |\n", c.Rule, c.N)
		}
	}
	b.WriteString("\n## Contents\n\n")
	for _, f := range files {
		b.WriteString("- `" + f + "`\n")
	}
	b.WriteString("- `README.md`\n")
	return b.String()
}

// codeText is the README's word on the code in the pack: the code that ran (the run's code/), with what was too
// big to copy; or, for a run made before runs kept their code, that the script is today's copy.
func codeText(m Meta, todays string) string {
	if m.Code == nil {
		if todays == "" {
			return ""
		}
		return "\n`" + todays + "` is today's copy, not the run's: this run was made before torchtriage kept a run's " +
			"code, so the script may have changed since it ran.\n"
	}
	var b strings.Builder
	b.WriteString("\n## Code\n\n")
	var kept, skipped []CodeFile
	for _, f := range m.Code.Files {
		if f.Kept() {
			kept = append(kept, f)
		} else {
			skipped = append(skipped, f)
		}
	}
	if len(kept) == 0 && len(skipped) == 0 {
		b.WriteString("The command names no script and the probe saw no module of yours imported: no code is packed.\n")
		return b.String()
	}
	if len(kept) > 0 {
		b.WriteString("`repro/` holds the code that ran, as the run kept it (its scripts when it started, the modules it " +
			"imported from your directories when it ended), not today's files:\n\n")
		for _, f := range kept {
			fmt.Fprintf(&b, "- `repro/%s` (%d bytes, sha256 %s)\n", f.Path, f.Size, shortHash(f.SHA256))
		}
	}
	if len(skipped) > 0 {
		b.WriteString("\nListed with their hash, not packed:\n\n")
		for _, f := range skipped {
			fmt.Fprintf(&b, "- `%s` (%d bytes, sha256 %s): %s\n", f.Path, f.Size, shortHash(f.SHA256), f.Skipped)
		}
	}
	return b.String()
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return orNone(h, "unknown")
}

// minifiedText is the README's word on what PyTorch's minifier and compiler bisector found (the ladder's
// minified/verdict.json), "" when neither ran on this run.
func minifiedText(m Meta) string {
	v, ok := ReadMinified(m.Dir)
	if !ok {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## Minified repro and compiler bisector\n\n")
	if v.Repro != "" {
		b.WriteString("`" + MinifiedDir + "/" + v.Repro + "` is PyTorch's minified repro of this run's failure: run it with `python3 " +
			MinifiedDir + "/" + v.Repro + "`.\n\n")
	}
	if v.Minifier != "" {
		b.WriteString("- Minifier: " + v.Minifier + "\n")
	}
	if v.Bisector != "" {
		b.WriteString("- Compiler bisector: " + v.Bisector + "\n")
	}
	return b.String()
}
