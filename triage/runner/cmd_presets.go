package runner

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// presetView is one preset as `torchtriage presets` shows it.
type presetView struct {
	Name      string            `json:"name"`
	TorchLogs string            `json:"torch_logs"`
	Env       map[string]string `json:"env"`
	Purpose   string            `json:"purpose"`
	Note      string            `json:"note,omitempty"`
}

func presetViews() []presetView {
	var out []presetView
	for _, p := range Presets() {
		logs, _ := ComposeTorchLogs(p.Logs, "")
		env := map[string]string{}
		for k, v := range p.Env {
			env[k] = v
		}
		if p.Trace {
			env["TORCH_TRACE"] = "<run dir>/trace"
		}
		out = append(out, presetView{Name: p.Name, TorchLogs: logs, Env: env, Purpose: p.Purpose, Note: p.Note})
	}
	return out
}

// CmdPresets is `torchtriage presets [--format text|json]`: every preset with
// its TORCH_LOGS, environment and purpose.
func CmdPresets(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("presets", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: torchtriage presets [--format text|json]\n\nLists the TORCH_LOGS presets: name, TORCH_LOGS, extra env and what each is for.\n"+
			"torchtriage run/check use one with --preset NAME (default "+DefaultPreset+").\n")
	}
	format := fs.String("format", "text", "output format: text or json")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "torchtriage presets: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	views := presetViews()
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(views); err != nil {
			fmt.Fprintln(stderr, "torchtriage presets:", err)
			return 1
		}
	case "text":
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tTORCH_LOGS\tENV\tPURPOSE")
		for _, v := range views {
			logs := v.TorchLogs
			if logs == "" {
				logs = "-"
			}
			purpose := v.Purpose
			if v.Note != "" {
				purpose += " " + v.Note
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", v.Name, logs, envText(v.Env), purpose)
		}
		if err := tw.Flush(); err != nil {
			return 1
		}
	default:
		fmt.Fprintf(stderr, "torchtriage presets: unknown format %q (text or json)\n", *format)
		return 2
	}
	return 0
}

func envText(env map[string]string) string {
	if len(env) == 0 {
		return "-"
	}
	return strings.Join(sortedEnv(env), " ")
}
