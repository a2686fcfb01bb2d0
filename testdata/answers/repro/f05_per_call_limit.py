# torch.compile(recompile_limit=2) (2.14): the limit is this call's, not the global config.recompile_limit (8).
import torch

@torch.compile(backend="eager", recompile_limit=2)
def f(x, tag):
    return x * len(tag)

x = torch.randn(4)
for t in ("a", "bb", "ccc", "dddd"):
    f(x, t)
print("done")
