import torch

torch._dynamo.config.automatic_dynamic_shapes_mark_as = "unbacked"


@torch.compile
def f(x):
    return x * 2


f(torch.randn(8))
f(torch.randn(16))
f(torch.randn(32))
