import torch

@torch.compile(dynamic=False)
def f(x):
    return x * 2

f(torch.randn(8))
f(torch.randn(16))
