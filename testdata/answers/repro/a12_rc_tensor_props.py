# Tensor properties: dtype, then requires_grad, then a transposed (strided) input.
import torch

@torch.compile(backend="eager", dynamic=False)
def f(x):
    return (x * 2).sum()

x = torch.randn(4, 4)
f(x)
f(x.double())
f(x.clone().requires_grad_())
f(x.t())
print("done")
