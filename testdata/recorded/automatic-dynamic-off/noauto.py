import torch
torch._dynamo.config.automatic_dynamic_shapes = False
@torch.compile(backend="eager")
def f(x):
    return x * 2
for n in (3,4,3,4):
    f(torch.randn(n))
