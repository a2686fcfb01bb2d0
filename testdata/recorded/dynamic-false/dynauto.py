import torch

@torch.compile
def f(x):
    return x * 2

f(torch.randn(8))
f(torch.randn(16))
