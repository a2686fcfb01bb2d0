package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// directive is the go:generate line of playbooks/registry.go: the test regenerates with its arguments.
var directive = regexp.MustCompile(`(?m)^//go:generate go run \./internal/gbregistry -in (\S+) -out (\S+)$`)

// The committed registry_gen.go is what the generator writes now from the committed registry copy, with the
// arguments of the go:generate directive. Run `go generate ./...` to fix.
func TestGeneratedRegistryIsCurrent(t *testing.T) {
	pkg := filepath.Join("..", "..")
	src, err := os.ReadFile(filepath.Join(pkg, "registry.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := directive.FindSubmatch(src)
	if m == nil {
		t.Fatal("playbooks/registry.go has no `//go:generate go run ./internal/gbregistry -in … -out …` line")
	}
	in, out := filepath.Join(pkg, string(m[1])), filepath.Join(pkg, string(m[2]))
	want, err := generateFile(in)
	if err != nil {
		t.Fatal(err)
	}
	// the generated header names the input as the directive does (relative to playbooks/), not as this test reaches it
	want = bytes.Replace(want, []byte(filepath.ToSlash(in)), m[1], 1)
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("%s: %v: run go generate ./...", m[2], err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("playbooks/%s is stale: run go generate ./...", m[2])
	}
}

func TestExplanationReadable(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Generators cannot be compiled directly with `torch.compile`.", "Generators cannot be compiled directly with `torch.compile`."},
		{"msg", ""},
		{"explanation", ""},
		{"", ""},
		// the Python source of GB0170's explanation
		{`"Detected data-dependent branching (e.g. ` + "`if my_tensor.sum() > 0:`" + `). "             "Dynamo does not support tracing dynamic control flow." + trace_info`,
			"Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does not support tracing dynamic control flow."},
		{`"Failed to compare {self} with {other}, "                     + f"because {other} is not a Python constant."`,
			"Failed to compare {self} with {other}, because {other} is not a Python constant."},
		{`observed_exn_gb_explanation                                 + " This graph break is unexpected."`, "This graph break is unexpected."},
		// text that only starts with a quote stays as it is
		{`'{self.python_type_name()}' subscript is not yet supported by Dynamo.`, `'{self.python_type_name()}' subscript is not yet supported by Dynamo.`},
		{"Two lines\n  of text.", "Two lines of text."},
	}
	for _, c := range cases {
		if got := explanation(c.in); got != c.want {
			t.Errorf("explanation(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestHintsReadable(t *testing.T) {
	userError := "Your code may result in an error when running in eager. You can do this by removing the `torch.compile` call. "
	cases := []struct {
		in, want []string
	}{
		{[]string{"Enable tracing of dynamic shape operators with ", "`torch._dynamo.config.capture_dynamic_output_shape_ops = True`"},
			[]string{"Enable tracing of dynamic shape operators with `torch._dynamo.config.capture_dynamic_output_shape_ops = True`"}},
		{[]string{"Avoid this call or move it outside `torch.compile` region", "It may be possible to write Dynamo tracing rules."},
			[]string{"Avoid this call or move it outside `torch.compile` region", "It may be possible to write Dynamo tracing rules."}},
		// a sentence ended and the next item starts one: two steps
		{[]string{"To monitor recompilations, enable TORCH_LOGS=recompiles. ", "If recompilations are expected, consider ", "increasing it."},
			[]string{"To monitor recompilations, enable TORCH_LOGS=recompiles.", "If recompilations are expected, consider increasing it."}},
		{[]string{"This happens in dict/list comprehensions", userError}, []string{"This happens in dict/list comprehensions", strings.TrimSpace(userError)}},
		{[]string{"{import_suggestion}see ", "https://docs.google.com/document/d/x", " for how to fix"},
			[]string{"{import_suggestion}see https://docs.google.com/document/d/x for how to fix"}},
		{[]string{"Use one of the following to register the type with pytree:\n", "* `a`\n", "* `b`\n", "* `c`"},
			[]string{"Use one of the following to register the type with pytree: `a`, `b`, `c`"}},
		{[]string{"", "  "}, []string{}},
	}
	for _, c := range cases {
		if got := hints(c.in); !slices.Equal(got, c.want) {
			t.Errorf("hints(%q) =\n%q, want\n%q", c.in, got, c.want)
		}
	}
}

func TestParseKeepsOlderTypes(t *testing.T) {
	es, err := parse([]byte(`{"GB0170": [{"Gb_type": "Data-dependent branching", "Context": "", "Explanation": "x", "Hints": []},
		{"Gb_type": "data-dependent branching", "Context": "", "Explanation": "", "Hints": []},
		{"Gb_type": "_gb_type", "Context": "", "Explanation": "", "Hints": []}],
		"GB0039": [{"Gb_type": "Dynamo recompile limit exceeded ", "Context": "", "Explanation": "", "Hints": []},
		{"Gb_type": "Dynamo cache limit exceeded", "Context": "", "Explanation": "", "Hints": []}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].id != "GB0039" || es[1].id != "GB0170" {
		t.Fatalf("entries %+v, want GB0039 then GB0170", es)
	}
	if es[0].gbType != "Dynamo recompile limit exceeded" || !slices.Equal(es[0].older, []string{"Dynamo cache limit exceeded"}) {
		t.Errorf("GB0039: %+v", es[0])
	}
	if len(es[1].older) != 0 {
		t.Errorf("GB0170 keeps %q: a case variant and a stray variable name are no older gb_types", es[1].older)
	}
	for _, bad := range []string{`[]`, `{"G59": [{"Gb_type": "x"}]}`, `{"GB0001": []}`, `{"GB0001": [{"Gb_type": " "}]}`} {
		if _, err := parse([]byte(bad)); err == nil {
			t.Errorf("parse(%s) took it", bad)
		}
	}
}
