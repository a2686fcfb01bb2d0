package probe

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The probe wraps torch.compile without changing it: every argument passes through, its result and exceptions
// come back unchanged, its name and docstring stay, and a wrapper made after it (the ladder's force_backend.py)
// chains with it; each call's user frame is recorded per compiled object in compile_sites (a module by its class
// and forward, a function by its name and code; a decorator by its line).
func TestProbeRecordsTorchCompileCallSites(t *testing.T) {
	runDir, env := installProbe(t, fakeTorch(t))
	// a wrapper of torch.compile made after the probe's, from a file in the probe's directory (as the ladder's is)
	chain := `import functools
import torch
seen = []
inner = torch.compile
@functools.wraps(inner)
def chained(*args, **kwargs):
    seen.append(kwargs.get("backend"))
    return inner(*args, **kwargs)
torch.compile = chained
`
	if err := os.WriteFile(filepath.Join(Dir(runDir), "tt_chain.py"), []byte(chain), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `import torch
import torch._dynamo
import os, sys; sys.path.insert(0, os.environ["TORCHTRIAGE_PROBE_DIR"])
import tt_chain
from tt_chain import inner, seen
#
#
#
#
#
class Net(torch.nn.Module):
    def forward(self, x):
        return x
def f(x):
    return x
net = Net()
a = torch.compile(net, backend="eager")
b = torch.compile(f)
@torch.compile(dynamic=False)
def g(x):
    return x
try:
    torch.compile(f, backend="raise")
except ValueError as e:
    print("raised", e)
print(a[0], a[1] is net, a[2], b[1] is f, g[0], torch.compile.__name__, inner.__name__, inner.__doc__.split(";")[0])
print(seen)
`
	res := runPython(t, env, script)
	want := "raised bad backend\ncompiled True eager True compiled compile compile torch.compile's signature\n['eager', None, None, 'inductor', 'raise']\n"
	if res.stdout != want || res.code != 0 || res.stderr != "" {
		t.Fatalf("the program saw torch.compile changed: %+v\nwant stdout %q", res, want)
	}
	infos, errs := ReadDir(runDir)
	if len(errs) != 0 || len(infos) != 1 {
		t.Fatalf("ReadDir: %d infos, errors %v", len(infos), errs)
	}
	got := map[string]CompileSite{}
	for _, s := range infos[0].CompileSites {
		got[s.Object+":"+strconv.Itoa(s.Line)] = s
		if filepath.Base(s.File) != "repro.py" || s.Function != "<module>" {
			t.Errorf("site %+v: not the user's frame", s)
		}
	}
	if len(got) != 4 {
		t.Errorf("sites %+v, want Net at 17, f at 18 and 23, g at 19 (the decorator's line)", infos[0].CompileSites)
	}
	if s := got["g:19"]; s.Kind != "function" || s.CodeLine != 19 {
		t.Errorf("g: %+v, want the decorator's line 19, its code from line 19 (co_firstlineno: its decorator's, as Dynamo names it)", s)
	}
	if s := got["Net:17"]; s.Kind != "module" || s.CodeLine != 12 || !strings.HasSuffix(s.CodeFile, "repro.py") {
		t.Errorf("Net: %+v, want a module whose forward is at repro.py:12", s)
	}
	if s := got["f:18"]; s.Kind != "function" || s.CodeLine != 14 {
		t.Errorf("f: %+v, want a function at line 14", s)
	}
	if got, ok := CompileSiteOfModule(infos, -1, "Net"); !ok || got.Line != 17 {
		t.Errorf("CompileSiteOfModule: %+v %v", got, ok)
	}
	if _, ok := CompileSiteOfCode(infos, -1, got["f:18"].CodeFile, 14); ok {
		t.Error("f was compiled at two lines (18, 23): no one site is its")
	}
}
