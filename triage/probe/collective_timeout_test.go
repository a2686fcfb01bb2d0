package probe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --collective-timeout: with CollectiveTimeoutEnv set, the probe wraps torch.distributed.init_process_group (as a
// program calls it: the name in torch.distributed, bound by its star import of distributed_c10d) so that a call
// gets that timeout, whatever timeout it passed (keyword or positional), and says so on stderr; without it the
// program is untouched. A stand-in torch.distributed package records the timeout each call got.
func TestCollectiveTimeoutWrapsInitProcessGroup(t *testing.T) {
	fake := t.TempDir()
	files := map[string]string{
		"torch/__init__.py":             "",
		"torch/distributed/__init__.py": "from .distributed_c10d import *\n",
		"torch/distributed/distributed_c10d.py": "__all__ = ['init_process_group']\n\n" +
			"def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1):\n" +
			"    print('timeout', timeout)\n",
	}
	for name, src := range files {
		path := filepath.Join(fake, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const script = "import torch.distributed as dist\n" +
		"dist.init_process_group('gloo', timeout=5)\n" +
		"dist.init_process_group('gloo', None, 7)\n" +
		"from torch.distributed import init_process_group\n" +
		"init_process_group('gloo')\n"
	_, env := installProbe(t, fake, CollectiveTimeoutEnv+"=60")
	res := runPython(t, env, script)
	if res.code != 0 || res.stdout != "timeout 0:01:00\ntimeout 0:01:00\ntimeout 0:01:00\n" {
		t.Fatalf("with --collective-timeout: %+v", res)
	}
	for _, was := range []string{"(the program's: 5)", "(the program's: 7)", "(the program's: torch's default)"} {
		if !strings.Contains(res.stderr, "torchtriage: init_process_group timeout set to 60s by --collective-timeout "+was+"\n") {
			t.Errorf("stderr lacks the note %s:\n%s", was, res.stderr)
		}
	}
	_, env = installProbe(t, fake)
	if res := runPython(t, env, script); res.code != 0 || res.stdout != "timeout 5\ntimeout 7\ntimeout None\n" || res.stderr != "" {
		t.Errorf("without it the program changed: %+v", res)
	}
}
