# torchtriage's driver of torch._inductor.compiler_bisector's Python API, for torch without `run` (2.6): bisects
# over the command in argv, rerun as a child process each time (good = exit 0), in one TORCHINDUCTOR_CACHE_DIR of its
# own (the bisector keeps its state under it). Prints the verdict as "do_bisect returned: <BisectionResult|None>".
import subprocess
import sys

from torch._inductor.compiler_bisector import CompilerBisector

cmd = sys.argv[1:]


def test():
    return subprocess.run(cmd).returncode == 0


print("do_bisect returned: %s" % (CompilerBisector.do_bisect(test),), flush=True)
