# torch.compiler.set_stance("fail_on_recompile") after warm-up: a new input shape raises and ends the run.
import torch

@torch.compile(backend="eager", dynamic=False)
def f(x):
    return x * 2

f(torch.randn(4))
torch.compiler.set_stance("fail_on_recompile")
f(torch.randn(4))
f(torch.randn(8))
print("done")
