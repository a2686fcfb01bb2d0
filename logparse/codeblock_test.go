package logparse

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// A paste indented as a code block is what every line starts with (four spaces or a tab, behind Markdown quotes
// too, all the indentation the lines share), blank lines aside; one line at column 0 makes it none. The reader takes it off each line that has it, long lines too, and nothing else.
func TestCodeBlockIndent(t *testing.T) {
	for _, c := range []struct {
		head  string
		whole bool
		want  string
	}{
		{"    RuntimeError: boom\n", true, "    "},
		{"    RuntimeError: boom", true, "    "},
		{"\tTraceback (most recent call last):\n\t  File \"x.py\", line 3\n\n\tRuntimeError: boom\r\n", true, "\t"},
		{"    a\n      b\n    c\n", true, "    "},
		{"        RuntimeError: boom\n", true, "        "},
		{"\t    RuntimeError: boom\n", true, "\t    "},
		{">     RuntimeError: boom\n", true, ">     "},
		{">>     a\n>>       b\n", true, ">>     "},
		{"> RuntimeError: boom\n", true, ""},
		{"> step 1\n>     RuntimeError: boom\n", true, ""},
		{"step 1\n    RuntimeError: boom\n", true, ""},
		{"    a\n  b\n", true, ""},
		{"  RuntimeError: boom\n", true, ""},
		{"    a\n    b\nstep", false, "    "}, // the cut last line is not looked at
		{"    a", false, ""},
		{"\n\n", true, ""},
	} {
		if got := string(codeBlockIndent([]byte(c.head), c.whole)); got != c.want {
			t.Errorf("%q (whole %v): %q, want %q", c.head, c.whole, got, c.want)
		}
	}
	long := strings.Repeat("x", 100<<10)
	in := "    a\n    " + long + "\n" + long + "    b\n\n    c"
	b, err := io.ReadAll(&dedentReader{r: bufio.NewReaderSize(strings.NewReader(in), 4096), indent: []byte("    "), bol: true})
	if want := "a\n" + long + "\n" + long + "    b\n\nc"; err != nil || string(b) != want {
		t.Errorf("dedent: %v, %d bytes, want %d", err, len(b), len(want))
	}
}
