package probe

import (
	"strings"
	"testing"
)

const forcedScript = `import torch

def f(x):
    return x

print(torch.compile(f, mode="max-autotune")[3])
print(torch.compile(backend="inductor", options={"a": 1})(f)[3])
print(torch.compile(f, backend="inductor", fullgraph=True)[3])
`

// With TORCHTRIAGE_BACKEND (the ladder's tier) every torch.compile call compiles with that backend, whatever the
// code asked, called or as a decorator; mode= and options= go for a backend other than inductor; the rest stays.
// Without it, torch.compile is torch's own.
func TestProbeForcesTheBackend(t *testing.T) {
	for _, c := range []struct {
		backend, want string
	}{
		{"aot_eager", "{'backend': 'aot_eager', 'mode': None, 'options': None, 'fullgraph': False}\n" +
			"{'backend': 'aot_eager', 'mode': None, 'options': None, 'fullgraph': False}\n" +
			"{'backend': 'aot_eager', 'mode': None, 'options': None, 'fullgraph': True}\n"},
		{"inductor", "{'backend': 'inductor', 'mode': 'max-autotune', 'options': None, 'fullgraph': False}\n" +
			"{'backend': 'inductor', 'mode': None, 'options': {'a': 1}, 'fullgraph': False}\n" +
			"{'backend': 'inductor', 'mode': None, 'options': None, 'fullgraph': True}\n"},
		{"", "{'backend': 'inductor', 'mode': 'max-autotune', 'options': None, 'fullgraph': False}\n" +
			"{'backend': 'inductor', 'mode': None, 'options': {'a': 1}, 'fullgraph': False}\n" +
			"{'backend': 'inductor', 'mode': None, 'options': None, 'fullgraph': True}\n"},
	} {
		var extra []string
		if c.backend != "" {
			extra = append(extra, BackendEnv+"="+c.backend)
		}
		_, env := installProbe(t, fakeTorch(t), extra...)
		res := runPython(t, env, forcedScript)
		if res.stdout != c.want || res.code != 0 || strings.TrimSpace(res.stderr) != "" {
			t.Errorf("%q: %+v, want\n%s", c.backend, res, c.want)
		}
	}
}
