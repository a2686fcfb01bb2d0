package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
)

// A user playbook narrower than gb-print is chosen for the print break; a malformed one is a warning and the
// report still works.
func TestReportUserPlaybooks(t *testing.T) {
	dir := t.TempDir()
	pb := filepath.Join(dir, "torchtriage", "playbooks")
	if err := os.MkdirAll(pb, 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(pb, "mine.md"), []byte("---\nid: team-print\ntitle: Our print rule\nseverity: low\ncategory: consider\nmatch:\n  kinds: [graph_break]\n  gb_ids: [GB0059]\n  reasons: ['builtin:? print']\npreset: breaks\n---\n## Why\nx\n## Do\n1. y\n## Verify\nz\n## Sources\n- https://docs.pytorch.org/\n"), 0o644)
	_ = os.WriteFile(filepath.Join(pb, "broken.md"), []byte("no front matter\n"), 0o644)
	t.Setenv("XDG_CONFIG_HOME", dir)
	var out, errb bytes.Buffer
	code := Run([]string{"report", filepath.Join(fixtures, "torch-2.6/r01_branch_print.triage.log")}, nil, &out, &errb)
	if code != 0 || !strings.Contains(errb.String(), "warning: playbook") || !strings.Contains(errb.String(), "broken.md") {
		t.Fatalf("code %d stderr %q", code, errb.String())
	}
	if !strings.Contains(out.String(), "playbook team-print") {
		t.Errorf("user playbook not used:\n%s", out.String())
	}
}

// `report` on a run directory reads its probe files: ranks that ran with different settings give a
// config_parity finding.
func TestReportRunDirProbes(t *testing.T) {
	run := t.TempDir()
	data, err := os.ReadFile(fx("torch-2.14/r06_dist_funcol.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(run, "stderr.log"), data, 0o644)
	_ = os.MkdirAll(filepath.Join(run, "probe"), 0o755)
	_ = os.WriteFile(filepath.Join(run, "probe", "rank0-100.json"), []byte(`{"rank":0,"pid":100,"env":{"TORCH_LOGS":"graph_breaks,recompiles"}}`), 0o644)
	_ = os.WriteFile(filepath.Join(run, "probe", "rank1-101.json"), []byte(`{"rank":1,"pid":101,"env":{"TORCH_LOGS":""}}`), 0o644)
	_ = os.WriteFile(filepath.Join(run, "probe", "rank2-102.json"), []byte(`{not json`), 0o644)
	var out, errb bytes.Buffer
	if code := Run([]string{"report", "--format", "json", run}, nil, &out, &errb); code != 0 {
		t.Fatalf("code %d %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "warning: probe:") || !strings.Contains(errb.String(), "rank2-102.json") {
		t.Errorf("malformed probe file not warned about: %q", errb.String())
	}
	var doc struct {
		Findings []struct {
			Kind, Playbook, Title string
		} `json:"findings"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var parity bool
	for _, f := range doc.Findings {
		if f.Kind == string(findings.KindConfigParity) {
			parity = f.Playbook == "dist-config-parity" && strings.Contains(f.Title, "env.TORCH_LOGS")
		}
	}
	if !parity {
		t.Errorf("no config_parity finding for TORCH_LOGS: %+v", doc.Findings)
	}
}

func TestCmdReportExitCodesAndFormats(t *testing.T) {
	var out, errb bytes.Buffer
	f := filepath.Join(fixtures, "torch-2.6/r05_dist_c10d.triage.log")
	if code := Run([]string{"report", "--format", "json", f}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), `"schema": "torchtriage.report/v2"`) {
		t.Fatalf("json: code %d out %q err %q", code, out.String(), errb.String())
	}
	out.Reset()
	data, _ := os.ReadFile(f)
	if code := Run([]string{"report", "-"}, bytes.NewReader(data), &out, &errb); code != 0 || !strings.Contains(out.String(), "ranks 0,1") {
		t.Fatalf("stdin text: code %d out %q", code, out.String())
	}
	errb.Reset()
	if code := Run([]string{"report", "/nonexistent/x.log"}, nil, &out, &errb); code != 2 || strings.Count(errb.String(), "\n") != 1 {
		t.Fatalf("unreadable: code %d err %q", code, errb.String())
	}
	if code := Run([]string{"report", "--format", "yaml", f}, nil, &out, &errb); code != 2 {
		t.Fatalf("bad format: code %d", code)
	}
	bin := filepath.Join(t.TempDir(), "core.log")
	_ = os.WriteFile(bin, bytes.Repeat([]byte{0, 1, 2, 0xff}, 4096), 0o644)
	errb.Reset()
	out.Reset()
	// a binary file named itself is refused in one line (exit 2), not reported as a run that printed nothing
	if code := Run([]string{"report", bin}, nil, &out, &errb); code != 2 || errb.String() != "torchtriage report: "+bin+" is a binary file, not a text log\n" || out.Len() != 0 {
		t.Fatalf("binary: code %d err %q out %q", code, errb.String(), out.String())
	}
	empty := filepath.Join(t.TempDir(), "empty.log")
	_ = os.WriteFile(empty, nil, 0o644)
	out.Reset()
	if code := Run([]string{"report", empty}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "Nothing found, but the input holds no torch output at all") {
		t.Fatalf("empty: code %d out %q", code, out.String())
	}
}

// Binary input read from stdin is reported too (the check runs where each input's head is read).
func TestBinaryStdinWarns(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Run([]string{"report", "-"}, bytes.NewReader(bytes.Repeat([]byte{0, 1, 2, 0xff}, 4096)), &out, &errb); code != 0 || !strings.Contains(errb.String(), "-: looks like a binary file") {
		t.Fatalf("code %d err %q", code, errb.String())
	}
}

// pastedCut is a quoted paste that starts inside a recompile record (its guard failure without the header).
const pastedCut = "> [0/1] [__recompiles]     - 0/0: tensor 'x' size mismatch at index 0. expected 4, actual 8\n" +
	"> Graph break in user code at /w/r.py:6\n> Reason: Unsupported: builtin: print [] False\n"

// `report -` with a log piped in reads it without a prompt (the prompt is for a terminal), and a pasted log that
// starts inside a record says so in the text report.
func TestReportStdinPastedPartial(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Run([]string{"report", "--width", "300", "-"}, strings.NewReader(pastedCut), &out, &errb); code != 0 {
		t.Fatalf("code %d stderr %q", code, errb.String())
	}
	if strings.Contains(errb.String(), "reading stdin") {
		t.Errorf("prompted without a terminal: %q", errb.String())
	}
	if !strings.Contains(out.String(), "partial input: the text looks cut (guard failures without their `Recompiling function` header") {
		t.Errorf("no partial line:\n%s", out.String())
	}
}

// The JSON says the same as the text: evidence.partial with its reasons, and the verdict's caveat.
func TestReportStdinPastedPartialJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Run([]string{"report", "--format", "json", "-"}, strings.NewReader(pastedCut), &out, &errb); code != 0 {
		t.Fatalf("code %d stderr %q", code, errb.String())
	}
	var j struct {
		Evidence struct {
			Partial        bool     `json:"partial"`
			PartialReasons []string `json:"partial_reasons"`
			Logs           []string `json:"logs"`
		} `json:"evidence"`
		Verdict struct {
			Summary string `json:"summary"`
		} `json:"verdict"`
	}
	if err := json.Unmarshal(out.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	// the [__recompiles] tag behind a head cut at the compile id still says recompiles logging was on
	if !j.Evidence.Partial || len(j.Evidence.PartialReasons) != 1 || !strings.Contains(j.Verdict.Summary, "the input looks cut") ||
		strings.Join(j.Evidence.Logs, ",") != "recompiles" {
		t.Errorf("evidence %+v verdict %q", j.Evidence, j.Verdict.Summary)
	}
}
