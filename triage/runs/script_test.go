package runs

import (
	"strings"
	"testing"
)

func TestScriptNameSkipsTheLauncher(t *testing.T) {
	for _, c := range []struct {
		argv  string
		shell bool
		want  string
	}{
		{"torchrun --nproc-per-node 2 --master-port 29641 r05_dist_c10d.py --steps 3", false, "r05_dist_c10d.py"},
		{"conda run -n torch python /src/train.py", false, "train.py"},
		{"uv run python x.py", false, "x.py"},
		{"srun -N 2 python -u ./r05_dist_c10d.py", false, "r05_dist_c10d.py"},
		{"docker exec -it ctr python3 repro/c01_mlp.py", false, "c01_mlp.py"},
		{"/work/shared/realtorch/run.sh env TORCHINDUCTOR_CACHE_DIR=/tmp/a python3 repro/c01_mlp.py", false, "c01_mlp.py"},
		{"python -m pkg.mod --x 1", false, "pkg.mod"},
		{"bash run.sh", false, "run.sh"},
		{"./run.sh --fast", false, "run.sh"},
		{"srun -N 2 ./bin/train --epochs 3", false, "train"},
		{"python train.py 2>&1 | tee log", true, "train.py"},
		{"make repro", false, ""},
	} {
		if got := ScriptName(strings.Fields(c.argv), c.shell); got != c.want {
			t.Errorf("ScriptName(%q) = %q, want %q", c.argv, got, c.want)
		}
	}
}
