# A recompile per bool mode flag: two expected variants.
import torch

@torch.compile(backend="eager")
def f(x, training):
    if training:
        return torch.nn.functional.dropout(x, 0.1)
    return x * 1.0

x = torch.randn(4)
for t in (True, False, True, False):
    f(x, t)
print("done")
