package probe

import (
	"path/filepath"
	"reflect"
	"testing"
)

// The probe records, at exit, what each live optimizer's `step` is (optim_scan.py): the class's own, the wrapper
// an LR scheduler sets (torch 2.6 breaks the graph at opt.step() on both that and the program's own wrapper, with
// the same words), or another callable, named with where it is defined. Before, it recorded nothing of them.
func TestProbeRecordsOptimizerSteps(t *testing.T) {
	const head = "import functools, types\nimport torch\nimport torch.optim\nfrom torch.optim import lr_scheduler\n"
	cases := []struct {
		name, script string
		want         []OptimizerStep // File "repro.py" is the script's base name; Line a decorated def's first decorator
	}{
		{"scheduler", head + "opt = torch.optim.Adam([], lr=0.01)\nsched = lr_scheduler.LambdaLR(opt, lambda e: 0.9**e)\nopt.step()\n",
			[]OptimizerStep{{Class: "Adam", Step: StepLRScheduler, Count: 1}}},
		{"program's wrapper", head + "opt = torch.optim.Adam([])\ninner = opt.step\n\n\n@functools.wraps(inner)\n" +
			"def counted_step(*a, **k):\n    return inner(*a, **k)\n\n\nopt.step = counted_step\nopt.step()\n",
			[]OptimizerStep{{Class: "Adam", Step: StepOther, Count: 1, Wrapper: "counted_step", File: "repro.py", Line: 9}}},
		// functools.wraps copies __dict__: the program's wrapper over the scheduler's carries _wrapped_by_lr_sched
		{"program's wrapper over the scheduler's", head + "opt = torch.optim.Adam([])\nlr_scheduler.LambdaLR(opt, lambda e: 1.0)\n" +
			"inner = opt.step\n\n\n@functools.wraps(inner)\ndef mine(*a, **k):\n    return inner(*a, **k)\n\n\nopt.step = mine\n" +
			"assert opt.step._wrapped_by_lr_sched\nopt.step()\n",
			[]OptimizerStep{{Class: "Adam", Step: StepOther, Count: 1, Wrapper: "mine", File: "repro.py", Line: 10}}},
		// the scheduler's wrapper over a bound-method wrapper of the program's: the program's is named
		{"scheduler over a method wrapper", head + "opt = torch.optim.Adam([])\n\n\ndef logged(self):\n    return None\n\n\n" +
			"opt.step = types.MethodType(logged, opt)\nlr_scheduler.LambdaLR(opt, lambda e: 1.0)\nopt.step()\n",
			[]OptimizerStep{{Class: "Adam", Step: StepOther, Count: 1, Wrapper: "logged", File: "repro.py", Line: 8}}},
		{"original, and a scheduler's", head + "a = torch.optim.Adam([])\nb = torch.optim.Adam([])\nc = torch.optim.Adam([])\n" +
			"lr_scheduler.LambdaLR(c, lambda e: 1.0)\n",
			[]OptimizerStep{{Class: "Adam", Step: StepLRScheduler, Count: 1}, {Class: "Adam", Step: StepOriginal, Count: 2}}},
		{"a callable object", head + "opt = torch.optim.Adam([])\nopt.step = functools.partial(print, end='')\n",
			[]OptimizerStep{{Class: "Adam", Step: StepOther, Count: 1, Wrapper: "functools.partial"}}},
		// the program's hooks are not run: a __class__ property (isinstance would read it), an optimizer whose
		// __getattribute__ raises
		{"hostile objects", head + "import sys\n\n\nclass Proxy:\n    @property\n    def __class__(self):\n" +
			"        sys.stderr.write('__class__ read\\n')\n        return torch.optim.Adam\n\n\n" +
			"class Odd(torch.optim.Optimizer):\n    def __getattribute__(self, name):\n        if name == 'step':\n" +
			"            sys.stderr.write('step read\\n')\n        return object.__getattribute__(self, name)\n\n\n" +
			"p = Proxy()\no = Odd([], {})\n",
			[]OptimizerStep{{Class: "Odd", Step: StepOriginal, Count: 1}}},
	}
	for _, c := range cases {
		runDir, env := installProbe(t, fakeTorch(t))
		res := runPython(t, env, c.script)
		if res.code != 0 || res.stderr != "" {
			t.Fatalf("%s: repro changed: %+v", c.name, res)
		}
		infos, errs := ReadDir(runDir)
		if len(errs) != 0 || len(infos) != 1 {
			t.Fatalf("%s: ReadDir: %v %v", c.name, infos, errs)
		}
		o := infos[0].Optim
		if o == nil || o.Scan != ScanComplete {
			t.Fatalf("%s: optim %+v", c.name, o)
		}
		for i := range o.Optimizers {
			if o.Optimizers[i].File != "" {
				o.Optimizers[i].File = filepath.Base(o.Optimizers[i].File)
			}
		}
		if !reflect.DeepEqual(o.Optimizers, c.want) {
			t.Errorf("%s: optimizers\n got %+v\nwant %+v", c.name, o.Optimizers, c.want)
		}
	}
}

// A program that imported torch but not torch.optim: the probe imports nothing, and records no optim field (the
// file format as before: an older probe's files read the same).
func TestProbeOptimizerScanImportsNothing(t *testing.T) {
	runDir, env := installProbe(t, fakeTorch(t))
	res := runPython(t, env, "import sys\nimport torch\nimport atexit\n"+
		"atexit.register(lambda: print('optim' if 'torch.optim' in sys.modules else 'none'))\n")
	if res.code != 0 || res.stderr != "" || res.stdout != "none\n" {
		t.Fatalf("repro changed, or torch.optim imported: %+v", res)
	}
	infos, errs := ReadDir(runDir)
	if len(errs) != 0 || len(infos) != 1 || infos[0].Optim != nil {
		t.Fatalf("ReadDir: %+v %v", infos, errs)
	}
}
