# After warm-up, set_stance("eager_on_recompile"): a new shape runs eagerly instead of compiling again.
import torch

@torch.compile(backend="eager")
def f(x):
    return (x * 2).sum(dim=-1)

f(torch.randn(4, 3))
torch.compiler.set_stance("eager_on_recompile")
f(torch.randn(5, 3))
f(torch.randn(6, 3))
print("ok")
