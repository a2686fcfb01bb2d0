package tui

import (
	"path/filepath"
	"strings"
	"testing"
)

// A recompile of a compiled module says where the user called torch.compile on it (the probe's compile_sites;
// testdata/recorded/compile-site, real 2.14.1): the row's detail reads "Compiled at:
// module_wrapper.py:8 in <module>". Before, the call site appeared nowhere on the screen.
func TestModuleRecompileDetailSaysWhereItWasCompiled(t *testing.T) {
	m := openPath(t, 240, 48, filepath.Join("..", "testdata", "recorded", "compile-site", "runs", "0001-breaks"))
	press(m, "enter") // the selected recompile's detail
	s := plain(m)
	if !strings.Contains(s, "Compiled at: module_wrapper.py:8 in <module>") {
		t.Errorf("screen:\n%s", s)
	}
}
