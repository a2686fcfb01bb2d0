# mark_dynamic on the batch dimension, but forward branches on its exact value.
import torch

@torch.compile(backend="eager")
def f(x):
    if x.shape[0] == 4:
        return x * 2
    return x + 1

x = torch.randn(4, 3)
torch._dynamo.mark_dynamic(x, 0)
print(f(x).shape)
