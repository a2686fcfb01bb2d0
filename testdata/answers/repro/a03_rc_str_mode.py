# A recompile per str mode: a small set of modes, expected variants.
import torch

@torch.compile(backend="eager")
def f(x, act):
    if act == "relu":
        return torch.relu(x)
    if act == "gelu":
        return torch.nn.functional.gelu(x)
    return torch.tanh(x)

x = torch.randn(4)
for a in ("relu", "gelu", "tanh", "relu"):
    f(x, a)
print("done")
