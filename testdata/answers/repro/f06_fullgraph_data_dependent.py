# fullgraph=True and a data-dependent branch: the compile fails, nothing runs compiled.
import torch

@torch.compile(fullgraph=True, backend="eager")
def f(x):
    n = x.sum().item()
    if n > 0:
        return x * 2
    return x

torch._dynamo.config.capture_scalar_outputs = True
f(torch.randn(4))
print("done")
