package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func run(t *testing.T, cmd string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // never read the real ~/.config
	var out, errb bytes.Buffer
	code := Run(append([]string{cmd}, args...), nil, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCmdPlaybooksText(t *testing.T) {
	code, out, errOut := run(t, "playbooks")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	table, footer, _ := strings.Cut(strings.TrimSpace(out), "\n\n") // the table, then a line on the registry playbooks
	if footer = strings.Join(strings.Fields(footer), " "); !strings.HasPrefix(footer, "and 561 registry playbooks") ||
		!strings.Contains(footer, "torchtriage playbooks GB0014") {
		t.Errorf("the list does not end by saying how to find the registry playbooks: %q", footer)
	}
	var rows []string // a title that wraps goes on indented lines
	for _, l := range strings.Split(table, "\n") {
		if !strings.HasPrefix(l, " ") {
			rows = append(rows, l)
		}
	}
	if n := len(mustBuiltin(t).All()); len(rows) != n+1 || !strings.HasPrefix(rows[0], "ID") {
		t.Errorf("%d rows (want header + %d): %q", len(rows), n, rows[0])
	}
	code, out, _ = run(t, "playbooks", "GB0124")
	if code != 0 || !strings.HasPrefix(strings.Split(out, "\n")[1], "gb-item ") {
		t.Errorf("query GB0124: exit %d\n%s", code, out)
	}
}

func TestCmdPlaybooksJSON(t *testing.T) {
	for _, args := range [][]string{{"GB0059", "--format", "json"}, {"--format=json", "GB0059"}} {
		code, out, errOut := run(t, "playbooks", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var got []map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: not JSON: %v\n%s", args, err, out)
		}
		if len(got) < 2 {
			t.Fatalf("%v: %d results", args, len(got))
		}
		var first struct {
			ID, Title, Severity, Category string
			Match                         map[string][]string
		}
		if err := json.Unmarshal(mustJSON(t, got[0]), &first); err != nil {
			t.Fatal(err)
		}
		if first.ID != "gb-print" || first.Title == "" || first.Severity == "" || first.Category == "" {
			t.Errorf("%v: first = %+v", args, first)
		}
		for _, key := range []string{"kinds", "gb_ids", "gb_types", "reasons", "guards", "errors"} {
			if raw := string(got[0]["match"]); !strings.Contains(raw, `"`+key+`"`) {
				t.Errorf("match lacks %q: %s", key, raw)
			}
		}
		if !strings.Contains(string(got[0]["match"]), `"guards": []`) {
			t.Errorf("empty lists must be [] not null: %s", got[0]["match"])
		}
		if len(got[0]) != 6 || string(got[0]["source"]) != `"builtin"` {
			t.Errorf("want exactly id,title,severity,category,match,source (builtin); got %d keys, source %s", len(got[0]), got[0]["source"])
		}
		if last := got[len(got)-1]; string(last["id"]) != `"gb-registry-0059"` || string(last["source"]) != `"registry"` {
			t.Errorf("the last result is %s (source %s), want PyTorch's own playbook of GB0059", last["id"], last["source"])
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCmdPlaybooksErrors(t *testing.T) {
	cases := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"--format", "xml"}, 2, "", `torchtriage playbooks: --format: "xml" is not one of text or json; see torchtriage playbooks --help`},
		{[]string{"--bogus"}, 2, "", "torchtriage playbooks: unknown flag --bogus; see torchtriage playbooks --help"},
		{[]string{"qqzzxxj"}, 1, "", "nothing matches"},
		{[]string{"--help"}, 0, "torchtriage playbooks [QUERY...]", ""},
	}
	for _, c := range cases {
		code, out, errOut := run(t, "playbooks", c.args...)
		if code != c.code || !strings.Contains(out, c.stdout) || !strings.Contains(errOut, c.stderr) || (c.stderr == "" && errOut != "") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errOut)
		}
	}
}

func TestCmdPlaybooksWarnsAboutBadUserFiles(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.md", strings.Replace(userNew, "severity: medium", "severity: urgent", 1))
	writeFile(t, dir, "good.md", userNew)
	code, out, errOut := run(t, "playbooks", "--dir", dir, "flash")
	if code != 0 || !strings.Contains(out, "team-flash-attn") {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	if !strings.Contains(errOut, bad+":4: severity") {
		t.Errorf("stderr %q lacks %s:4", errOut, bad)
	}
}

func TestCmdExplain(t *testing.T) {
	code, out, errOut := run(t, "explain", "gb-print", "--no-color", "--width", "60")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "print() inside a compiled region") || out != ansi.Strip(out) || !fits(out, 60) {
		t.Errorf("bad output:\n%s", out)
	}
	code, out, _ = run(t, "explain", "--width=40", "GB0059")
	if code != 0 || !strings.Contains(out, "print()") || !strings.Contains(out, "Also listing GB0059: gb-skipped-function") || !fits(out, 40) {
		t.Errorf("GB lookup: exit %d\n%s", code, out)
	}
	if out != ansi.Strip(out) {
		t.Error("colour used although stdout is not a terminal")
	}
}

func TestCmdExplainErrors(t *testing.T) {
	code, out, errOut := run(t, "explain", "gb-prnt")
	if code != 2 || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 ||
		!strings.Contains(errOut, "closest: ") || !strings.Contains(errOut, "gb-print") {
		t.Errorf("unknown id: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// an id torch does not have is unknown: no suggestion of unrelated playbooks (issue 35)
	code, out, errOut = run(t, "explain", "GB9999")
	if code != 2 || out != "" || strings.Contains(errOut, "closest") ||
		!strings.Contains(errOut, "unknown graph-break id GB9999: not in PyTorch 2.14.1's graph-break registry") {
		t.Errorf("GB9999: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, args := range [][]string{{}, {"a", "b"}, {"gb-print", "--width", "-1"}, {"--nope", "gb-print"}} {
		if code, _, errOut := run(t, "explain", args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if code, out, _ := run(t, "explain", "-h"); code != 0 || !strings.Contains(out, "torchtriage explain ID|GBnnnn") {
		t.Errorf("-h: exit %d, %q", code, out)
	}
	// user playbooks are found by explain too
	dir := t.TempDir()
	writeFile(t, dir, "flash.md", userNew)
	if code, out, _ := run(t, "explain", "team-flash-attn", "--dir", dir); code != 0 || !strings.Contains(out, "Flash attention") {
		t.Errorf("user playbook: exit %d\n%s", code, out)
	}
}
